/**
 * Timelake over the PostgreSQL protocol ({@link dev.timelake.server.PgServer}): psql and PostgreSQL
 * drivers in simple-query mode run Timelake SQL against an embedded warehouse.
 */
package dev.timelake.server;

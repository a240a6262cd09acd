/**
 * Opening the Iceberg catalog a lake lives in.
 *
 * <p>A lake is a catalog plus the folder or bucket its tables are stored in. The embedded default
 * keeps an Iceberg {@code JdbcCatalog} on a SQLite file inside the warehouse folder: commits are
 * atomic compare-and-swap updates of a table's metadata location, so several processes can append
 * to one warehouse. Any other Iceberg catalog (JDBC on PostgreSQL, REST, Hadoop) opens from the
 * same Iceberg catalog properties, which is the path to sharing tables with Spark or Trino.
 */
package dev.timelake.catalog;

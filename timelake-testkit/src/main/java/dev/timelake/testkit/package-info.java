/**
 * Real servers for tests and benchmarks, started on loopback and stopped on close: an S3 API server
 * ({@link dev.timelake.testkit.LocalS3}, S3Proxy storing objects in a folder) and PostgreSQL
 * ({@link dev.timelake.testkit.LocalPostgres}, Debian's server in a temporary data folder); and the
 * reader of the SQL conformance script, docs/conformance.sql ({@link
 * dev.timelake.testkit.ConformanceScript}), that the shell, JDBC and psql tests run. Not part of
 * the product's API.
 */
package dev.timelake.testkit;

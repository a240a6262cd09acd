/**
 * Timelake tables in Apache Spark.
 *
 * <p>Reads: {@link dev.timelake.spark.TimelakeSpark#read} turns a table's read plan (files read as
 * they are, groups of files that may share keys) into a DataFrame that keeps the winner of every
 * key, the same rows Timelake's own reader returns; {@link dev.timelake.spark.TimelakeCatalog} and
 * {@link dev.timelake.spark.TimelakeSparkExtensions} let Spark SQL name the tables. Appends: {@link
 * dev.timelake.spark.TimelakeSpark#append} checks a DataFrame's columns against the table, lets the
 * executors stage its rows as Parquet, and appends those files on the driver with Timelake's own
 * {@code Append} (every rule of an embedded append, one commit); the catalog's tables take the same
 * append from {@code df.writeTo(…).append()} and {@code INSERT INTO}. Jobs: {@link
 * dev.timelake.spark.TimelakeSpark#maintain} and {@link dev.timelake.spark.TimelakeSpark#refresh}
 * run each compaction or refresh window as a Spark task with Timelake's own engine on the executor
 * (a {@link dev.timelake.spark.LakeAddress} tells it where the lake is) and commit on the driver
 * through Timelake's committers.
 */
package dev.timelake.spark;

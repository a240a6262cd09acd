/**
 * Scan planning, pruning and dedup on read.
 *
 * <p>A read of a table reference is planned against the table's current snapshot ({@link
 * dev.timelake.read.ScanPlanner}): Iceberg's manifest bounds prune files on filters of the time and
 * series-key columns — never on other columns, because a filter on a value column could drop the
 * newer copy of a key and let an older one through. The remaining files are grouped by whether they
 * may share a key (time ranges and series-key bounds overlap). Files in no group are read as they
 * are; each group keeps the latest copy of each key: highest insertion time, then highest data
 * sequence number (commit order). {@link dev.timelake.read.ScanSql} renders the plan as a DuckDB
 * relation.
 */
package dev.timelake.read;

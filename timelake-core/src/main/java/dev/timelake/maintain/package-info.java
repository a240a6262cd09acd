/**
 * Maintenance: retention, compaction with dedup, snapshot expiry and orphan-file cleanup, inline
 * after appends and on demand.
 *
 * <p>Work is split as everywhere that commits: {@link dev.timelake.maintain.MaintenancePlanner}
 * turns table metadata into an immutable {@link dev.timelake.maintain.MaintenancePlan} (with an
 * explanation), {@link dev.timelake.maintain.MaintenanceRunner} writes the new files through DuckDB
 * and commits them. Compaction merges only runs of files next to each other in commit order within
 * a partition, keeps the latest copy of each key with the reader's winner rule, and gives the
 * merged file the newest data sequence number of the files it replaces: rewritten rows never look
 * like new data, so "latest write wins" and rollup refresh keep their meaning.
 */
package dev.timelake.maintain;

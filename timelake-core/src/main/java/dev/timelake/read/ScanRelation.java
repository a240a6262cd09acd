package dev.timelake.read;

import static java.util.Objects.requireNonNull;

import dev.timelake.storage.LakeFileIO;
import java.util.Optional;

/**
 * What one table reference of a statement reads, as the planner decided it: the files of its plan,
 * how copies are removed, and the key filter applied to every file first. A value; {@link #sql}
 * renders it (after the runner's local copies of remote files) as the relation DuckDB reads in the
 * reference's place.
 *
 * @param keyFilter unqualified SQL over key columns only (see {@link KeyFilter#text})
 */
record ScanRelation(
    ScanPlan plan, DedupStrategy strategy, Optional<String> keyFilter, LakeFileIO files) {
  ScanRelation {
    requireNonNull(plan, "plan is null");
    requireNonNull(strategy, "strategy is null");
    requireNonNull(keyFilter, "keyFilter is null");
    requireNonNull(files, "files is null");
  }

  /** The SELECT producing the reference's rows, reading local copies of remote files. */
  String sql() {
    return ScanSql.relation(plan, strategy, keyFilter, files);
  }
}

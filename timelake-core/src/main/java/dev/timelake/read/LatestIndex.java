package dev.timelake.read;

import dev.timelake.TimelakeException;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.table.TableContract;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * The last-value index of a time-series table (docs/SPEC.md §4): the newest row of every series
 * after the winner rule, one small Parquet file per snapshot that plain DuckDB can read, in the
 * table's metadata folder as {@code timelake-latest-<snapshot id>-s<schema id>.parquet}. Built on
 * first use: from the nearest ancestor's index and the rows the appends since added (a late row
 * never replaces a newer one, a copy only by the winner rule), kept as it is across compaction, and
 * from all live data after a delete or an overwrite, when an ancestor's index is gone, or when the
 * schema changed.
 */
public final class LatestIndex {
  private static final Pattern FILE_NAME =
      Pattern.compile("timelake-latest-(-?\\d+)-s(\\d+)\\.parquet");

  private LatestIndex() {}

  /** The snapshot an index file belongs to, if {@code fileName} names one. */
  public static Optional<Long> snapshotOf(String fileName) {
    Matcher name = FILE_NAME.matcher(fileName);
    return name.matches() ? Optional.of(Long.parseLong(name.group(1))) : Optional.empty();
  }

  /**
   * The local path of the index of the pinned snapshot, built when missing; empty for a table
   * without commits.
   */
  public static Optional<Path> of(PinnedTable pinned, EngineConnection connection) {
    Optional<Snapshot> pinnedSnapshot = pinned.snapshot();
    if (pinnedSnapshot.isEmpty()) {
      return Optional.empty();
    }
    Snapshot snapshot = pinnedSnapshot.get();
    Table iceberg = pinned.table().iceberg();
    LakeFileIO io = pinned.table().files();
    int schema = iceberg.schema().schemaId();
    String target = location(iceberg, snapshot.snapshotId(), schema);
    if (!io.exists(target)) {
      String rows = incremental(pinned, snapshot, schema).orElseGet(() -> full(pinned));
      write(connection, rows, target, io);
    }
    return Optional.of(Path.of(io.localPath(target)));
  }

  /**
   * After an append committed {@code snapshot}: when its parent has an index (the table's newest
   * rows are being read), builds the new one from it and the appended rows now, so that the next
   * query finds it. Best effort: the index is derived from data and built on first use otherwise.
   */
  public static void followAppend(
      dev.timelake.catalog.LoadedTable table, Snapshot snapshot, EngineConnection connection) {
    if (!table.contract().deduplicates()
        || table.contract().replacesWithinInterval()
        || snapshot.parentId() == null) {
      return;
    }
    Table iceberg = table.iceberg();
    int schema = iceberg.schema().schemaId();
    if (!table.files().exists(location(iceberg, snapshot.parentId(), schema))) {
      return;
    }
    try {
      of(PinnedTable.at(table, snapshot.snapshotId()), connection);
    } catch (RuntimeException e) {
      // Built on the next query instead.
    }
  }

  /**
   * The columns that are NULL in some row of the index file {@code index} (lower case). An index
   * file never changes, so the answer is kept for the last files asked about.
   */
  public static java.util.Set<String> columnsWithNulls(
      Path index, List<String> columns, EngineConnection connection) {
    synchronized (NULLS) {
      java.util.Set<String> known = NULLS.get(index);
      if (known != null) {
        return known;
      }
    }
    List<String> counts = new ArrayList<>();
    for (String column : columns) {
      counts.add("count(*) FILTER (WHERE " + SqlText.identifier(column) + " IS NULL)");
    }
    List<Object> row =
        connection
            .rows(
                "SELECT "
                    + String.join(", ", counts)
                    + " FROM read_parquet("
                    + SqlText.literal(index.toString())
                    + ")")
            .get(0);
    java.util.Set<String> nullable = new java.util.HashSet<>();
    for (int i = 0; i < columns.size(); i++) {
      if (((Number) row.get(i)).longValue() > 0) {
        nullable.add(columns.get(i).toLowerCase(java.util.Locale.ROOT));
      }
    }
    java.util.Set<String> result = java.util.Set.copyOf(nullable);
    synchronized (NULLS) {
      NULLS.put(index, result);
    }
    return result;
  }

  private static final java.util.Map<Path, java.util.Set<String>> NULLS =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Path, java.util.Set<String>> e) {
          return size() > 64;
        }
      };

  private static String location(Table iceberg, long snapshotId, int schemaId) {
    return iceberg.location()
        + "/metadata/timelake-latest-"
        + snapshotId
        + "-s"
        + schemaId
        + ".parquet";
  }

  /**
   * The newest rows from the nearest ancestor's index and the appends since, when every step
   * between is an append or a compaction.
   */
  private static Optional<String> incremental(PinnedTable pinned, Snapshot snapshot, int schema) {
    if (pinned.contract().replacesWithinInterval()) {
      // An appended row may replace an older series' newest row at a later time of its interval.
      return Optional.empty();
    }
    Table iceberg = pinned.table().iceberg();
    LakeFileIO io = pinned.table().files();
    Deque<Snapshot> appends = new ArrayDeque<>();
    Snapshot current = snapshot;
    while (true) {
      String operation = current.operation();
      if (DataOperations.APPEND.equals(operation)) {
        appends.push(current);
      } else if (!dev.timelake.table.SnapshotSummaries.keepsEveryRow(current)) {
        return Optional.empty();
      }
      Long parent = current.parentId();
      if (parent == null) {
        // No ancestor has an index: the first one is built from all rows.
        return Optional.empty();
      }
      current = iceberg.snapshot(parent);
      if (current == null) {
        return Optional.empty();
      }
      String base = location(iceberg, current.snapshotId(), schema);
      if (io.exists(base)) {
        return Optional.of(
            merge(iceberg, pinned.table().contract(), io.localPath(base), appends, io));
      }
    }
  }

  /**
   * The newest row per series of the base index and the rows the appends added, ranked by time,
   * then the winner rule: insertion time, then commit order (the base's rows are older than every
   * append's).
   */
  private static String merge(
      Table iceberg, TableContract contract, String base, Deque<Snapshot> appends, LakeFileIO io) {
    String columns = SqlText.identifiers(contract.columnNames());
    List<String> parts = new ArrayList<>();
    parts.add(
        "SELECT " + columns + ", -1 AS __tl_seq FROM read_parquet(" + SqlText.literal(base) + ")");
    for (Snapshot append : appends) {
      List<String> files = new ArrayList<>();
      append.addedDataFiles(iceberg.io()).forEach(file -> files.add(file.location()));
      if (!files.isEmpty()) {
        // Another writer's append: its rows' insertion time is the commit's.
        String selected =
            ExternalWrites.isExternalAppend(append) && contract.ingestTimeColumn().isPresent()
                ? ExternalWrites.columns(contract, ExternalWrites.commitMicros(append))
                : columns;
        parts.add(
            "SELECT "
                + selected
                + ", "
                + append.sequenceNumber()
                + " AS __tl_seq FROM read_parquet("
                + SqlText.literalList(io.localPaths(files))
                + ")");
      }
    }
    String order =
        SqlText.identifier(contract.timeColumn().orElseThrow())
            + " DESC"
            + contract
                .ingestTimeColumn()
                .map(ingest -> ", " + SqlText.identifier(ingest) + " DESC NULLS LAST")
                .orElse("")
            + ", __tl_seq DESC";
    return "SELECT "
        + columns
        + " FROM ("
        + String.join(" UNION ALL ", parts)
        + ") QUALIFY row_number() OVER ("
        + partition(contract)
        + "ORDER BY "
        + order
        + ") = 1";
  }

  /** The newest row per series of every live row, copies removed. */
  private static String full(PinnedTable pinned) {
    TableContract contract = pinned.table().contract();
    String relation =
        ScanSql.relation(
            ScanPlanner.plan(pinned, org.apache.iceberg.expressions.Expressions.alwaysTrue(), true),
            DedupStrategy.MERGE,
            pinned.table().files());
    return "SELECT "
        + SqlText.identifiers(contract.columnNames())
        + " FROM ("
        + relation
        + ") QUALIFY row_number() OVER ("
        + partition(contract)
        + "ORDER BY "
        + SqlText.identifier(contract.timeColumn().orElseThrow())
        + " DESC) = 1";
  }

  private static String partition(TableContract contract) {
    return contract.seriesKey().isEmpty()
        ? ""
        : "PARTITION BY " + SqlText.identifiers(contract.seriesKey()) + " ";
  }

  /** Writes the rows sorted by series; the file appears at {@code target} whole, at once. */
  private static void write(
      EngineConnection connection, String rows, String target, LakeFileIO io) {
    try {
      io.write(
          target,
          path ->
              connection.execute(
                  "COPY ("
                      + rows
                      + ") TO "
                      + SqlText.literal(path)
                      + " (FORMAT parquet, COMPRESSION zstd)"));
    } catch (java.io.UncheckedIOException e) {
      throw new TimelakeException(
          dev.timelake.ErrorCode.INTERNAL,
          "Cannot write the last-value index " + target + ": " + e.getMessage(),
          e);
    }
  }
}

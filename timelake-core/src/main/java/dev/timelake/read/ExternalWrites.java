package dev.timelake.read;

import dev.timelake.engine.SqlText;
import dev.timelake.table.SnapshotSummaries;
import dev.timelake.table.TableContract;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;

/**
 * Appends by other Iceberg writers (Spark, Trino, pyiceberg, DuckDB's iceberg extension): a
 * snapshot of operation {@code append} without Timelake's summary keys. Their rows' insertion time
 * is the commit's, whatever the writer put in the insertion-time column (a required column it had
 * to fill): so the newest write of a key wins by commit order, as for Timelake's own appends. Other
 * foreign commits (rewrites, overwrites) move rows Timelake or an append already timed, and keep
 * their values.
 */
public final class ExternalWrites {
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

  private ExternalWrites() {}

  /** True when {@code snapshot} appended files and Timelake did not write it. */
  public static boolean isExternalAppend(Snapshot snapshot) {
    return snapshot != null
        && DataOperations.APPEND.equals(snapshot.operation())
        && !snapshot.summary().containsKey(SnapshotSummaries.OPERATION);
  }

  /** The commit time of {@code snapshot} in µs since the epoch. */
  public static long commitMicros(Snapshot snapshot) {
    return snapshot.timestampMillis() * 1000;
  }

  /**
   * The table's columns as a SELECT list over a file an external append added: the insertion-time
   * column holds the commit's time.
   */
  public static String columns(TableContract contract, long commitMicros) {
    String ingest = contract.ingestTimeColumn().orElse(null);
    List<String> items = new ArrayList<>();
    for (String column : contract.columnNames()) {
      String identifier = SqlText.identifier(column);
      items.add(
          column.equals(ingest) ? insertionTime(commitMicros) + " AS " + identifier : identifier);
    }
    return String.join(", ", items);
  }

  /**
   * {@code SELECT * REPLACE} over a file an external append added, giving its rows the commit's
   * insertion time; the relation's columns and their order stay the file's.
   */
  static String timed(TableContract contract, String relation, long commitMicros) {
    String ingest = contract.ingestTimeColumn().orElseThrow();
    return "SELECT * REPLACE ("
        + insertionTime(commitMicros)
        + " AS "
        + SqlText.identifier(ingest)
        + ") FROM "
        + relation;
  }

  /** An exact TIMESTAMPTZ literal of {@code micros} (µs since the epoch, UTC). */
  private static String insertionTime(long micros) {
    Instant instant =
        Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), 0)
            .plusNanos(Math.floorMod(micros, 1_000_000) * 1000L);
    return "TIMESTAMPTZ '" + MICROS.format(instant) + "+00'";
  }
}

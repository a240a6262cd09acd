package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * How to read a table's rows with copies removed, for an engine other than Timelake's own (Spark,
 * say): the files whose rows share no key with another file's, to be read as they are, and groups
 * of files whose rows may share keys, within which only the winner of each key is kept. Groups
 * share no keys with each other. Every file is Parquet whose columns carry the field ids of {@link
 * #schemaJson}, the table's Iceberg schema (older files lack columns added since: read them as
 * NULL).
 *
 * <p>The winner of a key (the series key columns and the time column, or for a table with {@code
 * on_conflict = 'replace'} the series key and the {@link #interval} of the time) is the row with
 * the highest {@link #ingestTimeColumn} value (NULL lowest), then the highest {@link
 * ReadFile#sequenceNumber} of its file. Rows of one file never share a key.
 *
 * @param table the table
 * @param snapshotId the snapshot the plan reads, -1 for a table without commits
 * @param schemaJson the table's schema as Iceberg schema JSON, with field ids
 * @param asIs files read as they are
 * @param toDeduplicate groups of files read keeping the winner of each key
 * @param seriesKey the series key columns
 * @param timeColumn the time column (empty for a plain table, which has no copies)
 * @param ingestTimeColumn the insertion-time column, when the table has one
 * @param interval for a table whose newest write per index interval wins, the interval
 */
public record ReadPlan(
    TableName table,
    long snapshotId,
    String schemaJson,
    List<ReadFile> asIs,
    List<List<ReadFile>> toDeduplicate,
    List<String> seriesKey,
    Optional<String> timeColumn,
    Optional<String> ingestTimeColumn,
    Optional<KeyInterval> interval) {

  public ReadPlan {
    requireNonNull(table, "table is null");
    requireNonNull(schemaJson, "schemaJson is null");
    asIs = List.copyOf(asIs);
    toDeduplicate = toDeduplicate.stream().map(List::copyOf).toList();
    seriesKey = List.copyOf(seriesKey);
    requireNonNull(timeColumn, "timeColumn is null");
    requireNonNull(ingestTimeColumn, "ingestTimeColumn is null");
    requireNonNull(interval, "interval is null");
  }

  /** Every file the plan reads. */
  public List<ReadFile> files() {
    List<ReadFile> all = new java.util.ArrayList<>(asIs);
    toDeduplicate.forEach(all::addAll);
    return all;
  }

  /**
   * One data file: its location, the data sequence number of its commit (the later commit's rows
   * win ties of insertion time), its row count and size, and whether it is fresh: every row newer
   * than every row of the earlier files of its partition, so two fresh files never share a key and
   * a fresh file's key that no other file of its group holds needs no ranking. {@code
   * insertionMicros}, for a file another engine's append added, is its commit's time, which is
   * every row's insertion time whatever the file stores ({@link Long#MIN_VALUE} otherwise).
   */
  public record ReadFile(
      String location,
      long sequenceNumber,
      long rows,
      long sizeBytes,
      boolean fresh,
      long insertionMicros)
      implements Serializable {
    public ReadFile {
      requireNonNull(location, "location is null");
    }

    /** A file whose rows keep their stored insertion times. */
    public ReadFile(
        String location, long sequenceNumber, long rows, long sizeBytes, boolean fresh) {
      this(location, sequenceNumber, rows, sizeBytes, fresh, Long.MIN_VALUE);
    }

    /** True when another engine's append added the file: its rows take {@link #insertionMicros}. */
    public boolean hasInsertionTime() {
      return insertionMicros != Long.MIN_VALUE;
    }
  }

  /**
   * The index interval that keys copies of a {@code on_conflict = 'replace'} table: rows of a
   * series whose times fall in one interval are copies. The interval of a time is {@code
   * floor(value / width)}, the value in microseconds since the epoch for a timestamp, or the
   * logical clock's own value.
   *
   * @param width the interval's width in microseconds (timestamps) or clock units
   * @param timestamp true when the time column is a timestamp, false for a logical clock
   */
  public record KeyInterval(long width, boolean timestamp) implements Serializable {
    public KeyInterval {
      if (width <= 0) {
        throw new IllegalArgumentException("width must be positive: " + width);
      }
    }
  }
}

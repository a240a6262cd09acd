package dev.timelake;

import dev.timelake.engine.SqlText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Small fixtures shared by tests of several packages: table definitions, reads, file listings. */
public final class TestTables {
  private TestTables() {}

  /**
   * {@code (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)}, series key device, daily chunks, and
   * inline maintenance off: tests built on it observe the files and copies appends leave.
   */
  public static TableDefinition.Builder readings(String name) {
    return readingsKeyedBy(name, "device");
  }

  /**
   * {@code (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)}, series key tag, daily chunks, inline
   * maintenance off: the shape of the IIoT readings that routing and signal tests use.
   */
  public static TableDefinition.Builder tagReadings(String name) {
    return readingsKeyedBy(name, "tag");
  }

  private static TableDefinition.Builder readingsKeyedBy(String name, String key) {
    return TableDefinition.builder(name)
        .column(key, ColumnType.VARCHAR)
        .column("time", ColumnType.TIMESTAMPTZ)
        .column("value", ColumnType.DOUBLE)
        .timeColumn("time")
        .seriesKey(key)
        .option("auto-maintain", "false");
  }

  /** Every row of a query run through a new session of {@code lake}. */
  public static List<List<Object>> query(Lake lake, String sql) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  /** The Parquet files under the table's data folder, sorted; empty when there is none. */
  /**
   * A Parquet file {@code name}.parquet in {@code folder}, written by plain DuckDB from {@code
   * select}.
   */
  public static Path duckdbParquet(Path folder, String name, String select) throws Exception {
    Path file = folder.resolve(name + ".parquet");
    try (java.sql.Connection duckdb = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement statement = duckdb.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      statement.execute("COPY (" + select + ") TO '" + file + "' (FORMAT parquet)");
    }
    return file;
  }

  public static List<Path> dataFiles(Table table) {
    return dataFiles(table.info().location());
  }

  /** The Parquet files under the data folder of the table at {@code location}, sorted. */
  public static List<Path> dataFiles(String location) {
    Path data = Path.of(SqlText.localPath(location)).resolve("data");
    if (!Files.isDirectory(data)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The number of snapshots of the table's newest state. */
  public static int snapshots(Table table) {
    return table.refresh().info().snapshots().size();
  }

  /** An instant as query results return it: an {@link OffsetDateTime} in UTC. */
  public static OffsetDateTime utc(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }

  /** {@code utc(Instant.parse(text))}. */
  public static OffsetDateTime utc(String instant) {
    return utc(Instant.parse(instant));
  }

  /**
   * Adds {@code readings} to {@code append} and commits it: rows {@code {key, time, value}} (a
   * String, an Instant, a Double or null) of a table shaped as {@link #readings} or {@link
   * #tagReadings}, whose series key column is {@code keyColumn}. The same rows in the same order as
   * one {@code append.row(key, time, value)} each, handed over as one Arrow batch: {@code
   * Append.row} stages every row through its own JDBC insert (about 0.15 ms a row, 3.5 s for 20,000
   * here), which a fixture of tens of thousands of readings need not pay. The row path has tests of
   * its own.
   */
  public static AppendResult commitReadings(
      Append append, String keyColumn, List<Object[]> readings) {
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector key = new VarCharVector(keyColumn, allocator);
        TimeStampMicroTZVector time = new TimeStampMicroTZVector("time", allocator, "UTC");
        Float8Vector value = new Float8Vector("value", allocator)) {
      for (int i = 0; i < readings.size(); i++) {
        Object[] reading = readings.get(i);
        key.setSafe(i, ((String) reading[0]).getBytes(StandardCharsets.UTF_8));
        time.setSafe(i, micros((Instant) reading[1]));
        if (reading[2] == null) {
          value.setNull(i);
        } else {
          value.setSafe(i, (Double) reading[2]);
        }
      }
      try (VectorSchemaRoot root = VectorSchemaRoot.of(key, time, value)) {
        root.setRowCount(readings.size());
        return append.fromArrow(root).commit();
      }
    }
  }

  /** Microseconds since the epoch, without the overflow of {@code ChronoUnit.between}. */
  public static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }
}

package dev.timelake;

import dev.timelake.engine.SqlText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

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

  /** Microseconds since the epoch, without the overflow of {@code ChronoUnit.between}. */
  public static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }
}

package dev.timelake.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.AppendResult;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import dev.timelake.catalog.Catalogs;
import dev.timelake.engine.SqlText;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables Timelake writes are plain Iceberg tables: Iceberg's own reader and DuckDB's Parquet reader
 * see exactly the rows that were appended.
 */
class IcebergInteropTest {
  private static final Instant INGEST = Instant.parse("2026-03-01T12:00:00.000001Z");
  private static final List<String> COLUMNS =
      List.of(
          "device",
          "site",
          "time",
          "value",
          "ratio",
          "total",
          "ok",
          "day",
          "local",
          "amount",
          "payload",
          "note",
          "_ingest_ts");

  @TempDir static Path warehouse;
  private static Lake lake;
  private static Catalog iceberg;
  private static org.apache.iceberg.Table table;
  private static TestRandom random;

  /** The appended rows in table column order, by (device, site, time). */
  private static final Map<String, List<Object>> expected = new TreeMap<>();

  @BeforeAll
  static void writeTable() {
    random = TestRandom.create();
    lake = Lake.open(warehouse);
    Table readings =
        lake.createTable(
            TableDefinition.builder("interop.readings")
                .column("device", ColumnType.VARCHAR)
                .column("site", ColumnType.INTEGER)
                .column("time", ColumnType.TIMESTAMPTZ)
                .column("value", ColumnType.DOUBLE)
                .column("ratio", ColumnType.FLOAT)
                .column("total", ColumnType.BIGINT)
                .column("ok", ColumnType.BOOLEAN)
                .column("day", ColumnType.DATE)
                .column("local", ColumnType.TIMESTAMP)
                .column("amount", ColumnType.decimal(18, 3))
                .column("payload", ColumnType.BLOB)
                .column("note", ColumnType.VARCHAR)
                .timeColumn("time")
                .seriesKey("device", "site")
                .build());
    for (int batch = 0; batch < 3; batch++) {
      var append = readings.newAppend().clock(Clock.fixed(INGEST, ZoneOffset.UTC));
      for (int i = 0; i < 40; i++) {
        List<Object> row = randomRow(batch, i);
        append.row(row.toArray());
        List<Object> stored = new ArrayList<>(row);
        stored.set(2, ((Instant) row.get(2)).atOffset(ZoneOffset.UTC));
        stored.add(INGEST.atOffset(ZoneOffset.UTC));
        expected.put(row.get(0) + "/" + row.get(1) + "/" + row.get(2), normalized(stored));
      }
      AppendResult result = append.commit();
      assertThat(result.copiesDropped()).isZero();
    }
    iceberg = Catalogs.openEmbedded(warehouse);
    table = iceberg.loadTable(TableIdentifier.of("interop", "readings"));
  }

  @AfterAll
  static void close() throws IOException {
    ((Closeable) iceberg).close();
    lake.close();
  }

  @Test
  void icebergReaderSeesTheAppendedRows() throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        List<Object> row = new ArrayList<>();
        for (String column : COLUMNS) {
          row.add(record.getField(column));
        }
        rows.add(normalized(row));
      }
    }

    assertThat(rows).as("%s", random).containsExactlyInAnyOrderElementsOf(expected.values());
  }

  @Test
  void icebergReaderFiltersWithTheWrittenStatistics() throws IOException {
    OffsetDateTime from = OffsetDateTime.parse("2026-01-02T00:00:00Z");
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table)
            .where(
                Expressions.and(
                    Expressions.equal("device", "d1"),
                    Expressions.greaterThanOrEqual("time", from.toString())))
            .build()) {
      for (Record record : records) {
        List<Object> row = new ArrayList<>();
        for (String column : COLUMNS) {
          row.add(record.getField(column));
        }
        rows.add(normalized(row));
      }
    }

    List<List<Object>> wanted =
        expected.values().stream()
            .filter(row -> row.get(0).equals("d1"))
            .filter(row -> !((OffsetDateTime) row.get(2)).isBefore(from))
            .toList();
    assertThat(rows).as("%s", random).containsExactlyInAnyOrderElementsOf(wanted);
  }

  @Test
  void duckDbReadsTheDataFilesOfTheCurrentSnapshot() throws SQLException, IOException {
    List<String> paths = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> paths.add(SqlText.localPath(task.file().location())));
    }
    List<List<Object>> rows = new ArrayList<>();
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
      try (ResultSet result =
          statement.executeQuery(
              "SELECT "
                  + SqlText.identifiers(COLUMNS)
                  + " FROM read_parquet("
                  + SqlText.literalList(paths)
                  + ")")) {
        while (result.next()) {
          List<Object> row = new ArrayList<>();
          for (int i = 1; i <= COLUMNS.size(); i++) {
            row.add(result.getObject(i));
          }
          rows.add(normalized(row));
        }
      }
    }

    assertThat(paths)
        .hasSize(Integer.parseInt(table.currentSnapshot().summary().get("total-data-files")));
    assertThat(rows).as("%s", random).containsExactlyInAnyOrderElementsOf(expected.values());
  }

  @Test
  void dataFilesCarryIcebergFieldIds() throws SQLException, IOException {
    String path;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      path = SqlText.localPath(tasks.iterator().next().file().location());
    }
    Map<String, Integer> fieldIds = new TreeMap<>();
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT name, field_id FROM parquet_schema('"
                    + path
                    + "') WHERE field_id IS NOT NULL")) {
      while (result.next()) {
        fieldIds.put(result.getString(1), result.getInt(2));
      }
    }

    Map<String, Integer> icebergIds = new TreeMap<>();
    for (Types.NestedField field : table.schema().columns()) {
      icebergIds.put(field.name(), field.fieldId());
    }
    assertThat(fieldIds).isEqualTo(icebergIds);
  }

  @Test
  void dataFilesRecordTimeBoundsAndSortOrder() throws IOException {
    int timeId = table.schema().findField("time").fieldId();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(task.file().lowerBounds()).containsKey(timeId);
        assertThat(task.file().upperBounds()).containsKey(timeId);
        assertThat(task.file().sortOrderId()).isEqualTo(table.sortOrder().orderId());
        assertThat(task.file().partition().size()).isEqualTo(1);
      }
    }
  }

  private static List<Object> randomRow(int batch, int i) {
    Instant time =
        Instant.parse("2026-01-01T00:00:00Z")
            .plus(random.between(0, 3 * 86_400_000_000L), ChronoUnit.MICROS);
    boolean nulls = random.nextInt(4) == 0;
    byte[] payload = new byte[random.nextInt(5)];
    random.nextBytes(payload);
    return Arrays.asList(
        "d" + (i % 3),
        batch * 100 + i,
        time,
        random.nextInt(1000) / 8.0,
        nulls ? null : random.nextInt(100) / 4.0f,
        nulls ? null : random.nextLong(),
        nulls ? null : random.nextBoolean(),
        nulls
            ? null
            : LocalDate.of(
                1960 + random.nextInt(100), 1 + random.nextInt(12), 1 + random.nextInt(28)),
        nulls
            ? null
            : LocalDateTime.of(2026, 1, 1, 0, 0)
                .plus(random.between(-1_000_000_000_000L, 1_000_000_000_000L), ChronoUnit.MICROS),
        nulls ? null : BigDecimal.valueOf(random.between(-1_000_000_000, 1_000_000_000), 3),
        nulls ? null : payload,
        nulls ? null : "note " + random.nextInt(1000));
  }

  /** Values as comparable Java objects, whichever reader produced them. */
  private static List<Object> normalized(List<Object> row) {
    List<Object> values = new ArrayList<>();
    for (Object value : row) {
      values.add(normalized(value));
    }
    return values;
  }

  private static Object normalized(Object value) {
    try {
      if (value instanceof CharSequence text) {
        return text.toString();
      } else if (value instanceof OffsetDateTime time) {
        return time.withOffsetSameInstant(ZoneOffset.UTC);
      } else if (value instanceof Timestamp timestamp) {
        return timestamp.toLocalDateTime();
      } else if (value instanceof byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
      } else if (value instanceof ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return HexFormat.of().formatHex(bytes);
      } else if (value instanceof Blob blob) {
        return HexFormat.of().formatHex(blob.getBytes(1, (int) blob.length()));
      }
      return value;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}

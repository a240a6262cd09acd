package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ExternalIcebergAppend;
import dev.timelake.TableInfo;
import dev.timelake.catalog.Catalogs;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An append by another Iceberg writer (here Iceberg's Java API with its generic Parquet writer, as
 * Spark, Trino or pyiceberg would commit one): its rows' insertion time is its commit's, whatever
 * the writer put in {@code _ingest_ts}, so the newest write of a key wins by commit order; rollups
 * see its buckets as changed, maintenance merges it like Timelake's own files, and the table's
 * history says which snapshots came from elsewhere.
 */
class ExternalAppendTest extends WithLakeSession {
  private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-01-01T10:00:00Z");

  @BeforeEach
  void createTable() {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device', auto_maintain = false)");
    run(
        "INSERT INTO iot.r VALUES ('a', '2026-01-01 10:00:00+00', 1), ('b', '2026-01-01"
            + " 10:00:00+00', 2), ('c', '2026-01-01 11:00:00+00', 3)");
  }

  @Test
  void aKeysNewestWriteWinsByCommitOrderWhateverTheWriterPutInItsInsertionTime() {
    // The other writer's times are far in the past for a and far in the future for b.
    appendExternally(
        List.of(
            row("a", T0, 10.0, OffsetDateTime.parse("2000-01-01T00:00:00Z")),
            row("b", T0, 20.0, OffsetDateTime.parse("2100-01-01T00:00:00Z"))));
    assertThat(values()).containsExactly(List.of("a", 10.0), List.of("b", 20.0), List.of("c", 3.0));

    run("INSERT INTO iot.r VALUES ('b', '2026-01-01 10:00:00+00', 200)");
    assertThat(values())
        .containsExactly(List.of("a", 10.0), List.of("b", 200.0), List.of("c", 3.0));
    assertThat(
            rows(
                "SELECT device, value FROM iot.r LATEST ON time PARTITION BY device"
                    + " ORDER BY device"))
        .containsExactly(List.of("a", 10.0), List.of("b", 200.0), List.of("c", 3.0));

    lake.table("iot.r").newMaintenance().run();
    assertThat(values())
        .containsExactly(List.of("a", 10.0), List.of("b", 200.0), List.of("c", 3.0));
    // Compaction kept the commit's time: the row stays ordered after its files are merged.
    assertThat(
            rows(
                "SELECT _ingest_ts > TIMESTAMPTZ '2026-01-01' AND _ingest_ts < now() FROM iot.r"
                    + " WHERE device = 'a'"))
        .containsExactly(List.of(true));
  }

  @Test
  void aRollupsNextRefreshSeesTheBucketsAnExternalAppendChanged() {
    run(
        "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY device,"
            + " bucket");
    appendExternally(
        List.of(
            row("a", T0, 100.0, T0),
            row("a", T0.plusMinutes(30), 5.0, T0),
            row("d", T0.plusHours(1), 7.0, T0)));
    String hourly =
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS h, count(*), sum(value) FROM iot.r"
            + " GROUP BY ALL";
    assertRoutedEqualsRaw(hourly);
    run("REFRESH MATERIALIZED ROLLUP iot.r_1h");
    assertThat(rows("SELECT device, n, total FROM iot.r_1h ORDER BY device, bucket"))
        .containsExactly(
            List.of("a", 2L, 105.0),
            List.of("b", 1L, 2.0),
            List.of("c", 1L, 3.0),
            List.of("d", 1L, 7.0));
    assertRoutedEqualsRaw(hourly);
  }

  @Test
  void inlineMaintenanceWritesTheCommitsTimeIntoThePartitionsFiles() {
    appendExternally(List.of(row("a", T0, 10.0, OffsetDateTime.parse("2000-01-01T00:00:00Z"))));
    lake.table("iot.r").newMaintenance().inlineOnly().run();

    // The partition's two files (Timelake's and the external one) are one compacted file now,
    // the commit's time written in.
    assertThat(lake.table("iot.r").info().partitions())
        .singleElement()
        .satisfies(partition -> assertThat(partition.files()).isEqualTo(1));
    assertThat(values()).containsExactly(List.of("a", 10.0), List.of("b", 2.0), List.of("c", 3.0));
  }

  @Test
  void theTablesHistorySaysWhichSnapshotsCameFromElsewhere() {
    appendExternally(List.of(row("e", T0, 1.0, T0)));
    List<TableInfo.SnapshotInfo> snapshots = lake.table("iot.r").info().snapshots();
    assertThat(snapshots).hasSize(2);
    assertThat(snapshots.get(0).isExternal()).isFalse();
    assertThat(snapshots.get(1).isExternal()).isTrue();
  }

  @Test
  void aPartitioningOrSchemaChangedByAnotherEngineStopsTimelakesWritesNotItsReads() {
    Table table = Catalogs.openEmbedded(warehouse).loadTable(TableIdentifier.of("iot", "r"));
    table
        .updateSpec()
        .removeField(org.apache.iceberg.expressions.Expressions.day("time"))
        .addField(org.apache.iceberg.expressions.Expressions.hour("time"))
        .commit();

    assertThatThrownBy(() -> run("INSERT INTO iot.r VALUES ('z', '2026-01-02', 1)"))
        .isInstanceOf(dev.timelake.ValidationException.class)
        .hasMessageContaining("Cannot append to iot.r: its schema or partitioning was changed")
        .hasMessageContaining("it is partitioned by hour(time), not by day(time)");
    assertThatThrownBy(() -> run("DELETE FROM iot.r WHERE device = 'a'"))
        .hasMessageContaining("Cannot delete from iot.r");
    assertThatThrownBy(() -> lake.table("iot.r").newMaintenance().run())
        .hasMessageContaining("Cannot maintain iot.r");
    assertThat(values()).containsExactly(List.of("a", 1.0), List.of("b", 2.0), List.of("c", 3.0));

    table
        .updateSpec()
        .removeField("time_hour")
        .addField(org.apache.iceberg.expressions.Expressions.day("time"))
        .commit();
    table.replaceSortOrder().asc("time").commit(); // the sort order names the column too
    table.updateSchema().deleteColumn("device").commit();
    assertThatThrownBy(() -> run("INSERT INTO iot.r VALUES ('2026-01-02', 1)"))
        .hasMessageContaining("its series-key column 'device' is gone");
  }

  private List<List<Object>> values() {
    return rows("SELECT device, value FROM iot.r ORDER BY device");
  }

  private record Row(String device, OffsetDateTime time, double value, OffsetDateTime ingest) {}

  private static Row row(String device, OffsetDateTime time, double value, OffsetDateTime ingest) {
    return new Row(device, time, value, ingest);
  }

  private void appendExternally(List<Row> rows) {
    ExternalIcebergAppend.append(
        warehouse,
        "iot",
        "r",
        rows.stream()
            .map(
                r ->
                    Map.<String, Object>of(
                        "device", r.device(),
                        "time", r.time(),
                        "value", r.value(),
                        "_ingest_ts", r.ingest()))
            .toList());
  }
}

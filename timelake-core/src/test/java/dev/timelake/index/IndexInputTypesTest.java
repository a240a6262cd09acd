package dev.timelake.index;

import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The type rule of seed 003 for the index and entity columns of a table with a granularity: equal
 * types or lossless widening, timestamps in ms, µs or ns (nanoseconds only when exact), never in
 * seconds or from integers, no signed/unsigned change.
 */
class IndexInputTypesTest {
  @TempDir static Path warehouse;
  @TempDir static Path files;
  private static Lake lake;
  private static int tables;

  @BeforeAll
  static void openLake() {
    lake = Lake.open(warehouse);
  }

  @AfterAll
  static void closeLake() {
    lake.close();
  }

  private static Table table(String granularity) {
    TableDefinition.Builder definition =
        TableDefinition.builder("market.typed" + ++tables)
            .column("venue", ColumnType.INTEGER)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .column("close", ColumnType.DOUBLE)
            .indexColumn("ts")
            .entityColumns("venue")
            .option("auto-maintain", "false");
    if (granularity != null) {
      definition.indexGranularity(granularity);
    }
    return lake.createTable(definition.build());
  }

  private static Path parquet(String name, String select) throws Exception {
    return dev.timelake.TestTables.duckdbParquet(files, name, select);
  }

  @Test
  void nanosecondTimestampsArriveWhenExact() throws Exception {
    Table table = table("1s");
    Path exact =
        parquet(
            "exact",
            "SELECT 1 AS venue, TIMESTAMP_NS '2026-01-01 00:00:00.123456000' AS ts, 1.0::DOUBLE AS close");
    table.newAppend().fromParquet(exact).commit();
    assertThat(query(lake, "SELECT epoch_us(ts) % 1000000 FROM " + table.name()))
        .containsExactly(List.of(123456L));

    Path finer =
        parquet(
            "finer",
            "SELECT 2 AS venue, TIMESTAMP_NS '2026-01-01 00:00:01.123456789' AS ts, 1.0::DOUBLE AS close");
    assertThatThrownBy(() -> table.refresh().newAppend().fromParquet(finer).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column ts")
        .hasMessageContaining("123456789");
    assertThat(snapshots(table)).isEqualTo(1);
  }

  @Test
  void anIndexTakesNoTimestampsInSecondsNorIntegers() throws Exception {
    Table strict = table("1m");
    // Parquet has no seconds unit (DuckDB writes TIMESTAMP_S as milliseconds); Arrow input and
    // queries do.
    String seconds =
        "SELECT 1 AS venue, TIMESTAMP_S '2026-01-01 00:00:00' AS ts, 1.0::DOUBLE AS close";
    assertThatThrownBy(() -> strict.newAppend().fromQuery(seconds).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("index column 'ts' is TIMESTAMP_S");
    Path integers =
        parquet("integers", "SELECT 1 AS venue, 1767225600 AS ts, 1.0::DOUBLE AS close");
    assertThatThrownBy(() -> strict.newAppend().fromParquet(integers).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column 'ts' is INTEGER");
    assertThat(snapshots(strict)).isZero();

    // A table without granularity keeps taking seconds, a lossless widening.
    Table free = table(null);
    free.newAppend().fromQuery(seconds).commit();
    assertThat(snapshots(free)).isEqualTo(1);
  }

  @Test
  void entityColumnsWidenLosslesslyButNeverChangeSignedness() throws Exception {
    Table table = table("1m");
    Path small =
        parquet(
            "small",
            "SELECT 7::SMALLINT AS venue, TIMESTAMPTZ '2026-01-01 00:00:00+00' AS ts, 1.0::DOUBLE AS close");
    table.newAppend().fromParquet(small).commit();
    Path unsigned =
        parquet(
            "unsigned",
            "SELECT 8::UINTEGER AS venue, TIMESTAMPTZ '2026-01-01 00:00:00+00' AS ts, 1.0::DOUBLE AS"
                + " close");
    assertThatThrownBy(() -> table.refresh().newAppend().fromParquet(unsigned).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column 'venue' is UINTEGER")
        .hasMessageContaining("INTEGER in the table");
    Path wide =
        parquet(
            "wide",
            "SELECT 9::BIGINT AS venue, TIMESTAMPTZ '2026-01-01 00:00:00+00' AS ts, 1.0::DOUBLE AS close");
    assertThatThrownBy(() -> table.refresh().newAppend().fromParquet(wide).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column 'venue' is BIGINT");
    assertThat(snapshots(table)).isEqualTo(1);
  }
}

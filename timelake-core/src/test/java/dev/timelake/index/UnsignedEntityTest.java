package dev.timelake.index;

import static dev.timelake.TestTables.query;
import static dev.timelake.TestTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.timelake.ColumnType;
import dev.timelake.DuplicateIndexIntervalException;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.ValidationException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UBIGINT entity columns (seed 003): stored losslessly as DECIMAL(20,0) and recorded in {@code
 * timelake.unsigned-columns}; they take unsigned input only, every value from 0 to 2^64 − 1, and
 * keep their identities through conflicts, coverage and its SQL functions.
 */
class UnsignedEntityTest {
  private static final BigInteger MAX = new BigInteger("18446744073709551615");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

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

  private static Table table() {
    return lake.createTable(
        TableDefinition.builder("meters.m" + ++tables)
            .column("meter", ColumnType.UBIGINT)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .column("kwh", ColumnType.DOUBLE)
            .indexColumn("ts")
            .entityColumns("meter")
            .indexGranularity("1m")
            .option("auto-maintain", "false")
            .build());
  }

  @Test
  void everyUnsignedValueIsStoredExactlyAsDecimal20() {
    Table table = table();
    table
        .newAppend()
        .row(MAX, T0.atOffset(ZoneOffset.UTC), 1.0)
        .row(BigInteger.ZERO, T0.atOffset(ZoneOffset.UTC), 2.0)
        .row(Long.MAX_VALUE, T0.atOffset(ZoneOffset.UTC), 3.0)
        .commit();

    assertThat(query(lake, "SELECT meter FROM " + table.name() + " ORDER BY meter"))
        .containsExactly(
            List.of(new BigDecimal(0)),
            List.of(new BigDecimal(Long.MAX_VALUE)),
            List.of(new BigDecimal(MAX)));
    assertThat(
            query(lake, "SELECT kwh FROM " + table.name() + " WHERE meter = 18446744073709551615"))
        .containsExactly(List.of(1.0));
    assertThat(
            query(
                lake,
                "SELECT kwh FROM "
                    + table.name()
                    + " WHERE meter IN (0, 18446744073709551615, -1) ORDER BY kwh"))
        .containsExactly(List.of(1.0), List.of(2.0));
    assertThat(query(lake, "SELECT typeof(meter) FROM " + table.name() + " LIMIT 1"))
        .containsExactly(List.of("DECIMAL(20,0)"));
    assertThat(lake.table(table.name().toString()).settings())
        .containsEntry("unsigned-columns", "meter");
  }

  @Test
  void conflictsNameTheUnsignedIdentity() {
    Table table = table();
    DuplicateIndexIntervalException duplicate =
        catchThrowableOfType(
            DuplicateIndexIntervalException.class,
            () ->
                table
                    .newAppend()
                    .row(MAX, T0.atOffset(ZoneOffset.UTC), 1.0)
                    .row(MAX, T0.plusSeconds(30).atOffset(ZoneOffset.UTC), 2.0)
                    .commit());
    assertThat(duplicate.exampleIdentity()).containsExactly(Map.entry("meter", MAX));
    assertThat(duplicate).hasMessageContaining("meter = 18446744073709551615");

    table.refresh().newAppend().row(MAX, T0.atOffset(ZoneOffset.UTC), 1.0).commit();
    IndexIntervalOverlapException overlap =
        catchThrowableOfType(
            IndexIntervalOverlapException.class,
            () ->
                table
                    .refresh()
                    .newAppend()
                    .row(MAX, T0.plusSeconds(59).atOffset(ZoneOffset.UTC), 2.0)
                    .commit());
    assertThat(overlap.exampleIdentity()).containsExactly(Map.entry("meter", MAX));
    table
        .refresh()
        .newAppend()
        .row(MAX.subtract(BigInteger.ONE), T0.atOffset(ZoneOffset.UTC), 2.0)
        .commit();
    assertThat(snapshots(table)).isEqualTo(2);
  }

  @Test
  void coverageKeepsUnsignedIdentitiesInJavaAndSql() {
    Table table = table();
    table
        .newAppend()
        .row(MAX, T0.atOffset(ZoneOffset.UTC), 1.0)
        .row(7L, T0.plusSeconds(120).atOffset(ZoneOffset.UTC), 1.0)
        .commit();
    CoverageStore.forgetRemembered();

    var coverage = table.refresh().indexCoverage();
    assertThat(coverage.identities())
        .containsExactly(Map.of("meter", BigInteger.valueOf(7)), Map.of("meter", MAX));
    assertThat(coverage.ratio(Map.of("meter", MAX), T0, T0.plusSeconds(120))).isEqualTo(0.5);
    assertThat(coverage.ratio(Map.of("meter", "18446744073709551615"), T0, T0.plusSeconds(60)))
        .isEqualTo(1.0);
    assertThatThrownBy(() -> coverage.ratio(Map.of("meter", -1), T0, T0.plusSeconds(60)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("'meter'")
        .hasMessageContaining("UBIGINT");
    try (Session session = lake.newSession();
        QueryResult result =
            session.sql(
                "SELECT meter, typeof(meter), covered FROM timelake_coverage('"
                    + table.name()
                    + "', TIMESTAMPTZ '2026-01-01 00:00:00+00', TIMESTAMPTZ '2026-01-01"
                    + " 00:03:00+00') WHERE meter = 18446744073709551615")) {
      assertThat(result.rows()).containsExactly(List.of(MAX, "UBIGINT", 1L));
    }
  }

  @Test
  void unsignedColumnsTakeUnsignedInputOnly() throws Exception {
    Table table = table();
    Path unsigned =
        parquet(
            "unsigned",
            "SELECT 8::UINTEGER AS meter, TIMESTAMPTZ '2026-01-01 00:00:00+00' AS ts, 1.0::DOUBLE"
                + " AS kwh");
    table.newAppend().fromParquet(unsigned).commit();
    Path max =
        parquet(
            "max",
            "SELECT 18446744073709551615::UBIGINT AS meter, TIMESTAMPTZ '2026-01-01 00:00:00+00'"
                + " AS ts, 1.0::DOUBLE AS kwh");
    table.refresh().newAppend().fromParquet(max).commit();
    Path signed =
        parquet(
            "signed",
            "SELECT 9::BIGINT AS meter, TIMESTAMPTZ '2026-01-01 00:05:00+00' AS ts, 1.0::DOUBLE AS"
                + " kwh");
    assertThatThrownBy(() -> table.refresh().newAppend().fromParquet(signed).commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(table.name().toString())
        .hasMessageContaining("column 'meter' is UBIGINT in the table")
        .hasMessageContaining("but BIGINT")
        .hasMessageContaining("no signed/unsigned conversion");
    assertThatThrownBy(
            () ->
                table
                    .refresh()
                    .newAppend()
                    .row(-1L, T0.plusSeconds(600).atOffset(ZoneOffset.UTC), 1.0)
                    .commit())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("column meter: -1 is not a UBIGINT");
    try (Session session = lake.newSession()) {
      assertThatThrownBy(
              () ->
                  session.sql(
                      "INSERT INTO "
                          + table.name()
                          + " VALUES (18446744073709551616, TIMESTAMPTZ '2026-01-01 00:09:00+00',"
                          + " 1)"))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("18446744073709551616 is not a UBIGINT");
      try (QueryResult ignored =
          session.sql(
              "INSERT INTO "
                  + table.name()
                  + " VALUES (18446744073709551614, TIMESTAMPTZ '2026-01-01 00:09:00+00', 1)")) {
        // committed
      }
    }
    assertThat(snapshots(table)).isEqualTo(3);
  }

  @Test
  void unsignedInsideANestedTypeIsRefused() {
    assertThatThrownBy(
            () ->
                lake.createTable(
                    TableDefinition.builder("meters.nested")
                        .column("ids", ColumnType.list(ColumnType.UBIGINT))
                        .build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("meters.nested")
        .hasMessageContaining("top-level columns only");
  }

  private static Path parquet(String name, String select) throws Exception {
    return dev.timelake.TestTables.duckdbParquet(files, name, select);
  }
}

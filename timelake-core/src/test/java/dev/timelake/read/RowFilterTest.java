package dev.timelake.read;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TestTables;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pruning filter on time and series-key columns is applied inside every file scan of the
 * relation, the scans dedup joins included; filters on other columns stay above dedup.
 */
class RowFilterTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;
  private Lake lake;

  @BeforeEach
  void loadOnTimeThenLateRows() {
    lake = Lake.open(warehouse);
    Table table = lake.createTable(TestTables.readings("iot.r").build());
    table
        .newAppend()
        .row("a", T0, 1.0)
        .row("o'brien", T0, 2.0)
        .row("b", T0.plusSeconds(3600), 3.0)
        .commit();
    // Later: a late copy of (a, T0) with a smaller value, and a new hour.
    table.newAppend().row("a", T0, 0.5).row("b", T0.plusSeconds(7200), 4.0).commit();
  }

  @AfterEach
  void close() {
    lake.close();
  }

  @Test
  void everyScanOfADedupGroupReadsOnlyTheFilteredSeriesAndTimes() {
    String sql =
        duckdbSql("SELECT * FROM iot.r WHERE device IN ('a', 'b') AND time >= '2026-01-01'");
    String condition =
        "WHERE \"device\" IN ('a', 'b') AND \"time\" >= CAST('2026-01-01 00:00:00.000000+00' AS"
            + " TIMESTAMPTZ)";
    Matcher scans = Pattern.compile("read_parquet\\(\\[[^\\]]*\\]\\)").matcher(sql);
    int scanCount = 0;
    while (scans.find()) {
      scanCount++;
      assertThat(sql.substring(scans.end()).stripLeading()).as(sql).startsWith(condition);
    }
    assertThat(scanCount).as(sql).isGreaterThanOrEqualTo(3);
    assertThat(
            query(lake, "SELECT device, value FROM iot.r WHERE device IN ('a', 'b') ORDER BY ALL"))
        .containsExactly(List.of("a", 0.5), List.of("b", 3.0), List.of("b", 4.0));
  }

  @Test
  void aFilterOnAnotherColumnStaysAboveDedup() {
    // The older copy of (a, T0) has value 1.0; the newest, 0.5, is the row, so nothing matches.
    assertThat(duckdbSql("SELECT * FROM iot.r WHERE value > 0.75")).doesNotContain("\"value\" >");
    assertThat(query(lake, "SELECT device FROM iot.r WHERE value > 0.75 AND device = 'a'"))
        .isEmpty();
  }

  @Test
  void timeBoundsKeepTheirMicroseconds() {
    assertThat(
            query(
                lake,
                "SELECT count(*) FROM iot.r WHERE time < TIMESTAMPTZ '2026-01-01 00:00:00.000001+00'"))
        .containsExactly(List.of(2L));
    assertThat(
            query(
                lake,
                "SELECT count(*) FROM iot.r WHERE time < TIMESTAMPTZ '2026-01-01 00:00:00+00'"))
        .containsExactly(List.of(0L));
  }

  @Test
  void stringValuesAreQuotedAndOrsOfKeyTermsAreKept() {
    String sql =
        duckdbSql("SELECT * FROM iot.r WHERE device = 'o''brien' OR time >= '2026-01-01 02:00:00'");
    assertThat(sql).contains("WHERE (\"device\" = 'o''brien' OR \"time\" >= CAST(");
    assertThat(
            query(
                lake,
                "SELECT device, value FROM iot.r"
                    + " WHERE device = 'o''brien' OR time >= '2026-01-01 02:00:00' ORDER BY ALL"))
        .containsExactly(List.of("b", 4.0), List.of("o'brien", 2.0));
  }

  /** The DuckDB statement Timelake runs for {@code sql}. */
  private String duckdbSql(String sql) {
    return query(lake, "EXPLAIN " + sql).stream()
        .filter(row -> row.get(0).equals("duckdb sql"))
        .map(row -> (String) row.get(1))
        .findFirst()
        .orElseThrow();
  }
}

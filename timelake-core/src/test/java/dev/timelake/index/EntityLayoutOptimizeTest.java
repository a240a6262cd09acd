package dev.timelake.index;

import static dev.timelake.TestTables.dataFiles;
import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.OptimizeReport;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Entity-layout optimization rewrites files that mix series into one file per series and keeps
 * rows, winners and coverage; a second run does nothing.
 */
class EntityLayoutOptimizeTest {
  @TempDir Path warehouse;

  private static final String ROWS =
      "SELECT symbol, epoch(ts)::BIGINT, close FROM market.bars ORDER BY symbol, ts";

  private static Table bars(Lake lake, String granularity) {
    TableDefinition.Builder definition =
        TableDefinition.builder("market.bars")
            .column("symbol", ColumnType.VARCHAR)
            .column("ts", ColumnType.TIMESTAMPTZ)
            .column("close", ColumnType.DOUBLE)
            .indexColumn("ts")
            .entityColumns("symbol")
            .option("auto-maintain", "false");
    if (granularity != null) {
      definition.indexGranularity(granularity);
    }
    return lake.createTable(definition.build());
  }

  private static void append(Table table, String symbol, long second, double close) {
    table
        .refresh()
        .newAppend()
        .row(symbol, Instant.ofEpochSecond(second).atOffset(ZoneOffset.UTC), close)
        .commit();
  }

  @Test
  void mixedFilesBecomeOneFilePerSeriesKeepingRowsAndCoverage() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = bars(lake, "1m");
      var mixed = table.newAppend();
      for (String symbol : List.of("A", "B", "C")) {
        for (long m = 0; m < 3; m++) {
          mixed.row(symbol, Instant.ofEpochSecond(60 * m).atOffset(ZoneOffset.UTC), m * 1.0);
        }
      }
      mixed.commit();
      append(table, "A", 600, 9.0);
      List<List<Object>> before = query(lake, ROWS);

      OptimizeReport report = table.refresh().newOptimize().run();

      assertThat(report.noOp()).isFalse();
      assertThat(report.candidateFiles()).isEqualTo(2);
      assertThat(report.filesReplaced()).isEqualTo(1);
      assertThat(report.filesWritten()).isEqualTo(3);
      assertThat(report.identities()).isEqualTo(3);
      assertThat(report.rowsRead()).isEqualTo(9);
      assertThat(report.rowsWritten()).isEqualTo(9);
      assertThat(query(lake, ROWS)).isEqualTo(before);
      assertThat(dataFiles(table.refresh())).hasSize(4 + 1);
      assertThatThrownBy(() -> append(table, "B", 61, 1.0))
          .isInstanceOf(IndexIntervalOverlapException.class);
      CoverageStore.forgetRemembered();
      assertThatThrownBy(() -> append(table, "C", 121, 1.0))
          .isInstanceOf(IndexIntervalOverlapException.class);

      OptimizeReport again = table.refresh().newOptimize().run();
      assertThat(again.noOp()).isTrue();
      assertThat(again.committedSnapshot()).isEmpty();
      assertThat(again.candidateFiles()).isEqualTo(4);
    }
  }

  @Test
  void theWinnerOfCopiesStaysTheWinner() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = bars(lake, null);
      table
          .newAppend()
          .row("A", Instant.ofEpochSecond(0).atOffset(ZoneOffset.UTC), 1.0)
          .row("B", Instant.ofEpochSecond(0).atOffset(ZoneOffset.UTC), 1.0)
          .commit();
      // A later copy of A replaces the first; optimize must not let the old one win.
      append(table, "A", 0, 2.0);
      List<List<Object>> before = query(lake, ROWS);
      assertThat(before).contains(List.of("A", 0L, 2.0));

      table.refresh().newOptimize().run();

      assertThat(query(lake, ROWS)).isEqualTo(before);
    }
  }

  @Test
  void sqlAndErrors() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = bars(lake, "1m");
      table
          .newAppend()
          .row("A", Instant.ofEpochSecond(0).atOffset(ZoneOffset.UTC), 1.0)
          .row("B", Instant.ofEpochSecond(0).atOffset(ZoneOffset.UTC), 1.0)
          .commit();
      try (Session session = lake.newSession()) {
        List<List<Object>> report = session.sql("OPTIMIZE market.bars").rows();
        assertThat(report).hasSize(1);
        assertThat(session.sql("OPTIMIZE TABLE market.bars").rows().get(0)).contains("true");
      }
      Table plain =
          lake.createTable(
              TableDefinition.builder("market.plain")
                  .column("ts", ColumnType.TIMESTAMPTZ)
                  .indexColumn("ts")
                  .build());
      assertThatThrownBy(() -> plain.newOptimize().run())
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("market.plain")
          .hasMessageContaining("no entity columns");
    }
  }
}

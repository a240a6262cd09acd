package dev.timelake.index;

import static dev.timelake.TestTables.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Append;
import dev.timelake.ColumnType;
import dev.timelake.DuplicateIndexIntervalException;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TableDefinition;
import dev.timelake.TestRandom;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conflict rule against an oracle: random appends (late rows, rows before the epoch, NULL
 * values, compaction in between) into a 7-second table either commit or fail exactly as counting
 * (series, floor(second / 7)) pairs says, and the table ends holding exactly the accepted rows.
 */
class IndexIntervalOracleTest {
  private static final long WIDTH = 7;

  @TempDir Path warehouse;

  private record Row(String symbol, long second, Double price) {
    List<Object> pair() {
      return List.of(symbol, Math.floorDiv(second, WIDTH));
    }
  }

  @Test
  void appendsCommitOrFailAsTheOracleSays() {
    TestRandom random = TestRandom.create();
    try (Lake lake = Lake.open(warehouse)) {
      Table table =
          lake.createTable(
              TableDefinition.builder("market.random")
                  .column("symbol", ColumnType.VARCHAR)
                  .column("ts", ColumnType.TIMESTAMPTZ)
                  .column("price", ColumnType.DOUBLE)
                  .indexColumn("ts")
                  .entityColumns("symbol")
                  .indexGranularity(WIDTH + "s")
                  .option("auto-maintain", "false")
                  .build());
      Set<List<Object>> committed = new HashSet<>();
      List<Row> accepted = new ArrayList<>();
      int commits = 0;
      int duplicates = 0;
      int overlaps = 0;
      for (int batch = 0; batch < 60; batch++) {
        List<Row> rows = new ArrayList<>();
        int size = 1 + random.nextInt(5);
        for (int i = 0; i < size; i++) {
          rows.add(
              new Row(
                  List.of("a", "b", "c").get(random.nextInt(3)),
                  random.between(-60, 400),
                  random.nextInt(5) == 0 ? null : (double) random.nextInt(100)));
        }
        Map<List<Object>, Integer> inBatch = new HashMap<>();
        rows.forEach(row -> inBatch.merge(row.pair(), 1, Integer::sum));
        boolean duplicate = inBatch.values().stream().anyMatch(count -> count > 1);
        long conflicts = rows.stream().filter(row -> committed.contains(row.pair())).count();

        Append append = table.refresh().newAppend();
        rows.forEach(
            row ->
                append.row(
                    row.symbol(),
                    Instant.ofEpochSecond(row.second()).atOffset(ZoneOffset.UTC),
                    row.price()));
        String context = random + " batch " + batch + " " + rows;
        if (duplicate) {
          duplicates++;
          org.assertj.core.api.Assertions.assertThatThrownBy(append::commit)
              .as(context)
              .isInstanceOf(DuplicateIndexIntervalException.class);
        } else if (conflicts > 0) {
          overlaps++;
          IndexIntervalOverlapException overlap =
              org.assertj.core.api.Assertions.catchThrowableOfType(
                  IndexIntervalOverlapException.class, append::commit);
          assertThat(overlap).as(context).isNotNull();
          assertThat(overlap.conflictCount()).as(context).isEqualTo(conflicts);
        } else {
          append.commit();
          commits++;
          rows.forEach(row -> committed.add(row.pair()));
          accepted.addAll(rows);
        }
        if (batch % 20 == 19) {
          table.refresh().newMaintenance().run();
        }
      }
      List<List<Object>> expected = new ArrayList<>();
      accepted.stream()
          .sorted(
              (x, y) ->
                  x.symbol().equals(y.symbol())
                      ? Long.compare(x.second(), y.second())
                      : x.symbol().compareTo(y.symbol()))
          .forEach(row -> expected.add(Arrays.asList(row.symbol(), row.second(), row.price())));
      assertThat(
              query(
                  lake,
                  "SELECT symbol, epoch(ts)::BIGINT, price FROM market.random ORDER BY symbol,"
                      + " ts"))
          .as(random.toString())
          .isEqualTo(expected);
      assertThat(commits).as(random.toString()).isPositive();
      assertThat(duplicates + overlaps).as(random.toString()).isPositive();
    }
  }
}

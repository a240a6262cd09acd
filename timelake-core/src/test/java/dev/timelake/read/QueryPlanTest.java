package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Lake;
import dev.timelake.QueryPlan;
import dev.timelake.QueryPlan.Dedup;
import dev.timelake.QueryPlan.TableRead;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query's plan as values ({@link QueryResult#plan()}): per table reference its files, pruning,
 * key filter and dedup; the last-value index and routes; and the explanation derived from them.
 */
class QueryPlanTest {
  @TempDir static Path directory;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void writeATableWithLateCopies() {
    lake = Lake.open(directory.resolve("warehouse"));
    session = lake.newSession();
    run(
        "CREATE TABLE iot.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'tag', chunk = '1 day',"
            + " auto_maintain = false)");
    for (int day = 1; day <= 3; day++) {
      run(
          "INSERT INTO iot.r SELECT 'tag' || (i % 3), TIMESTAMPTZ '2026-01-0"
              + day
              + " 00:00:00+00' + to_minutes(i), i FROM range(60) t(i)");
    }
    // A late copy of day 1's first rows: day 1 now has two files that share keys.
    run(
        "INSERT INTO iot.r SELECT 'tag' || (i % 3), TIMESTAMPTZ '2026-01-01 00:00:00+00'"
            + " + to_minutes(i), -i FROM range(6) t(i)");
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @Test
  void eachTableReferenceHasItsFilesPruningAndDedup() {
    try (QueryResult result =
        session.sql(
            "SELECT count(*) FROM iot.r WHERE time < TIMESTAMPTZ '2026-01-02 00:00:00+00'")) {
      assertThat(result.rows()).containsExactly(List.of(60L));
      TableRead read = result.plan().reads().get(0);
      assertThat(read.table()).hasToString("iot.r");
      assertThat(read.filesBeforePruning()).isEqualTo(4);
      assertThat(read.filesRead()).isEqualTo(2);
      assertThat(read.partitionsRead()).isEqualTo(1);
      assertThat(read.partitionsBeforePruning()).as("three days").isEqualTo(3);
      assertThat(read.overlapGroups()).isEqualTo(1);
      assertThat(read.filesInOverlapGroups()).isEqualTo(2);
      assertThat(read.independentFiles()).isZero();
      assertThat(read.dedup()).isEqualTo(Dedup.MERGE);
      assertThat(read.pruningFilter()).hasValueSatisfying(f -> assertThat(f).contains("time"));
      assertThat(read.keyFilter()).isPresent();
      assertThat(result.plan().reads()).hasSize(1);
    }
  }

  @Test
  void aKeyFilterOnTheSeriesRanksTheirRowsInOneRead() {
    try (QueryResult result = session.sql("SELECT max(value) FROM iot.r WHERE tag = 'tag1'")) {
      TableRead read = result.plan().reads().get(0);
      assertThat(read.dedup()).isEqualTo(Dedup.RANK);
      assertThat(read.keyFilter()).hasValueSatisfying(f -> assertThat(f).contains("tag1"));
      assertThat(read.filesRead()).isEqualTo(4);
    }
  }

  @Test
  void aJoinHasOneReadPerReferenceAndNoKeyFilter() {
    try (QueryResult result =
        session.sql(
            "SELECT count(*) FROM iot.r a JOIN iot.r b USING (tag, time) WHERE a.time >="
                + " TIMESTAMPTZ '2026-01-03 00:00:00+00'")) {
      assertThat(result.plan().reads()).extracting(TableRead::filesRead).containsExactly(1, 4);
      assertThat(result.plan().reads()).allSatisfy(r -> assertThat(r.keyFilter()).isEmpty());
    }
  }

  @Test
  void withoutDedupTheFilesAreReadAsTheyAre() {
    session.set("timelake.read_dedup", "off");
    try (QueryResult result = session.sql("SELECT count(*) FROM iot.r")) {
      assertThat(result.rows()).containsExactly(List.of(186L));
      TableRead read = result.plan().reads().get(0);
      assertThat(read.dedup()).isEqualTo(Dedup.NONE);
      assertThat(read.overlapGroups()).isZero();
      assertThat(read.explanation()).isEqualTo("iot.r: 4 of 4 files after pruning, no dedup");
    } finally {
      session.set("timelake.read_dedup", "on");
    }
  }

  @Test
  void latestRowsReadTheLastValueIndex() {
    try (QueryResult result =
        session.sql("SELECT tag, time, value FROM iot.r LATEST ON time PARTITION BY tag")) {
      QueryPlan plan = result.plan();
      assertThat(plan.latestIndex())
          .hasValueSatisfying(
              index -> {
                assertThat(index.table()).hasToString("iot.r");
                assertThat(index.indexFile()).endsWith(".parquet");
              });
      assertThat(plan.reads()).isEmpty();
      assertThat(result.rows()).hasSize(3);
    }
  }

  @Test
  void theExplanationIsDerivedFromTheFieldsAndEndsInTheSql() {
    try (QueryResult result = session.sql("SELECT count(*) FROM iot.r WHERE tag = 'tag0'")) {
      QueryPlan plan = result.plan();
      assertThat(plan.explanation())
          .containsExactlyElementsOf(plan.reads().stream().map(TableRead::explanation).toList());
      assertThat(result.explanation())
          .containsExactlyElementsOf(
              java.util.stream.Stream.concat(
                      plan.explanation().stream(),
                      java.util.stream.Stream.of("DuckDB SQL: " + plan.sql()))
                  .toList());
      assertThat(plan.sql()).contains("read_parquet");
    }
  }

  @Test
  void aStatementThatIsNotAQueryOfTheLakeHasNoPlan() {
    try (QueryResult result = session.sql("SELECT 42")) {
      assertThat(result.plan().reads()).isEmpty();
    }
    try (QueryResult result = session.sql("SET timelake.read_dedup = 'on'")) {
      assertThat(result.plan()).isEqualTo(QueryPlan.NONE);
    }
  }

  private static void run(String sql) {
    session.sql(sql).close();
  }
}

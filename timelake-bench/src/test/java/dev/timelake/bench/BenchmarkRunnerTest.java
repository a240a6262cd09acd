package dev.timelake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.timelake.iiot.IiotGenerator;
import dev.timelake.iiot.Scale;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A smoke run of the benchmark on 12 hours of the tiny plant: every query once in every
 * configuration, no warm-up. It checks that each query runs and that the configurations that remove
 * copies give Timelake's answers; times are never asserted (a benchmark is a program).
 */
class BenchmarkRunnerTest {
  @TempDir static Path warehouse;
  private static BenchmarkReport report;

  @BeforeAll
  static void runOnce() {
    report =
        BenchmarkRunner.builder()
            .plant(IiotGenerator.builder().scale(Scale.TINY).hours(12))
            .runs(1)
            .withoutWarmUp()
            .build()
            .run(warehouse.resolve("lake"));
  }

  @Test
  void runsEveryQueryInEveryConfiguration() {
    assertThat(report.queries())
        .extracting(QueryFigures::query)
        .containsExactlyElementsOf(BenchmarkRunner.queryNames());
    for (QueryFigures query : report.queries()) {
      List<Configuration> expected =
          Stream.of(Configuration.values())
              .filter(c -> c != Configuration.TIMELAKE_ROUTED || query.routed())
              .filter(
                  c -> c != Configuration.QUESTDB || QuestdbQueries.raw(query.query()).isPresent())
              .filter(
                  c ->
                      c != Configuration.QUESTDB_VIEWS
                          || QuestdbQueries.view(query.query()).isPresent())
              .toList();
      assertThat(query.configurations())
          .extracting(ConfigurationFigures::configuration)
          .containsExactlyElementsOf(expected);
      for (ConfigurationFigures figures : query.configurations()) {
        assertThat(figures.failure())
            .as(query.query() + " in " + figures.configuration())
            .isEmpty();
        assertThat(figures.runs()).hasSize(1);
        assertThat(figures.rows()).as(query.query()).isPositive();
      }
    }
  }

  @Test
  void timelakeRoutedAndQualifyGiveTheSameAnswers() {
    for (QueryFigures query : report.queries()) {
      assertThat(query.answersAgree()).as(query.query() + ": " + query.configurations()).isTrue();
    }
    assertThat(report.afterMaintenance())
        .extracting(QueryFigures::query)
        .containsExactlyElementsOf(BenchmarkRunner.AFTER_MAINTENANCE);
    assertThat(report.answersAgree()).isTrue();
  }

  @Test
  void questdbAsksEveryBenchmarkQueryAndAgrees() {
    for (String name : BenchmarkRunner.queryNames().subList(0, 13)) {
      ConfigurationFigures questdb = query(name).of(Configuration.QUESTDB).orElseThrow();
      assertThat(questdb.failure()).as(name).isEmpty();
      assertThat(questdb.difference()).as(name).isEmpty();
    }
    assertThat(query("daily-stats").of(Configuration.QUESTDB_VIEWS)).isPresent();
    assertThat(query("twa-daily").of(Configuration.QUESTDB_VIEWS)).isEmpty();
    assertThat(query("m4-hourly-fn").of(Configuration.QUESTDB)).isEmpty();
    assertThat(report.operations())
        .extracting(OperationFigure::name)
        .contains(
            "QuestDB: bulk load (read_parquet into a WAL table with DEDUP UPSERT KEYS(time, tag))",
            "QuestDB: build materialized views readings_1h and readings_1d");
  }

  @Test
  void runsOnlyTheChosenConfigurationsAndLeavesQuestdbOutWhenAsked(@TempDir Path lake) {
    BenchmarkReport without =
        BenchmarkRunner.builder()
            .plant(IiotGenerator.builder().scale(Scale.TINY).hours(2))
            .runs(1)
            .withoutWarmUp()
            .withoutQuestdb()
            .configurations(List.of(Configuration.DUCKDB))
            .queriesOnly()
            .queries(List.of("latest"))
            .build()
            .run(lake);
    assertThat(without.queries().get(0).configurations())
        .extracting(ConfigurationFigures::configuration)
        .containsExactly(Configuration.TIMELAKE, Configuration.DUCKDB);
    assertThat(without.markdown()).doesNotContain("questdb");
    assertThatThrownBy(() -> Configuration.parse("spark"))
        .hasMessage(
            "Unknown configuration 'spark' (configurations: timelake, timelake-routed, duckdb,"
                + " duckdb-qualify, questdb, questdb-views)");
  }

  @Test
  void plainDuckdbSeesTheCopies() {
    QueryFigures daily = query("daily-stats");
    ConfigurationFigures plain = daily.of(Configuration.DUCKDB).orElseThrow();
    ConfigurationFigures timelake = daily.of(Configuration.TIMELAKE).orElseThrow();
    assertThat(plain.difference()).isPresent();
    assertThat(plain.checksum()).isGreaterThan(timelake.checksum());
  }

  @Test
  void routesTheBucketedAndRangeQueriesToTheRollups() {
    assertThat(query("hourly-20-tags").routed()).isTrue();
    assertThat(query("m4-hourly").routed()).isTrue();
    assertThat(query("six-hourly-totals").routed()).isTrue();
    assertThat(query("range-stats").routed()).isTrue();
    assertThat(query("day-stats").routed()).isTrue();
    assertThat(query("twa-daily").routed()).isFalse();
  }

  @Test
  void measuresTheRoutedSessionOnlyWhereItRoutes() {
    assertThat(query("hourly-20-tags").of(Configuration.TIMELAKE_ROUTED)).isPresent();
    assertThat(query("twa-daily").of(Configuration.TIMELAKE_ROUTED)).isEmpty();
  }

  @Test
  void reportsTheLoadingAndMaintenanceFigures() {
    assertThat(report.operations())
        .extracting(OperationFigure::name)
        .contains(
            "bulk load (generation), this run",
            "create 1-minute rollup (with first and last)",
            "daily-stats from the 1-minute rollup alone",
            "create daily rollup (no 1-minute rollup present)",
            "create daily rollup (1-minute rollup present)",
            "hourly append (one more hour)",
            "refresh 1-minute rollup after one hourly append",
            "refresh hourly rollup after one hourly append",
            "maintain after the load");
    assertThat(report.operations())
        .allSatisfy(o -> assertThat(o.took()).as(o.name() + ": " + o.detail()).isPresent());
  }

  @Test
  void writesMarkdownJsonAndSvg(@TempDir Path results) throws Exception {
    report.write(results);

    String markdown = Files.readString(results.resolve(BenchmarkReport.MARKDOWN_FILE));
    for (String name : BenchmarkRunner.queryNames()) {
      assertThat(markdown).contains("| " + name + " |");
    }
    JsonNode json =
        new ObjectMapper().readTree(results.resolve(BenchmarkReport.JSON_FILE).toFile());
    assertThat(json.get("queries")).hasSize(BenchmarkRunner.queryNames().size());
    for (JsonNode query : json.get("queries")) {
      String name = query.get("query").asText();
      int configurations =
          (query.get("routed").asBoolean() ? 4 : 3)
              + (QuestdbQueries.raw(name).isPresent() ? 1 : 0)
              + (QuestdbQueries.view(name).isPresent() ? 1 : 0);
      assertThat(query.get("configurations")).as(name).hasSize(configurations);
    }
    assertThat(markdown).contains("= timelake (not routed)", "no view", "### Against QuestDB");
    assertThat(markdown).containsPattern("\\| \\*\\*geometric mean\\*\\* \\(22 queries\\)");
    byte[] svg = Files.readAllBytes(results.resolve(BenchmarkReport.SVG_FILE));
    assertThat(
            DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg))
                .getDocumentElement()
                .getTagName())
        .isEqualTo("svg");
    assertThat(new String(svg, StandardCharsets.UTF_8)).contains(">hourly-20-tags (r)<");
  }

  @Test
  void givesEveryEngineTheSameMemoryLimitAndSaysSo() {
    assertThat(report.machine())
        .endsWith(
            ", DuckDB memory_limit "
                + BenchmarkRunner.defaultMemoryLimit()
                + " for each of 3 engines, QuestDB 9.2.0 in a child JVM");
    assertThat(BenchmarkRunner.defaultMemoryLimit()).matches("[0-9]+GB");
  }

  @Test
  void rejectsAMemoryLimitThatIsNotASize() {
    assertThatThrownBy(() -> BenchmarkRunner.builder().memoryLimit("lots"))
        .hasMessage("Invalid memory limit 'lots': expected a size such as 6GB or 512MB");
  }

  @Test
  void rejectsUnknownQueryNamingTheKnownOnes() {
    assertThatThrownBy(() -> BenchmarkRunner.builder().queries(List.of("daily-stats", "nope")))
        .hasMessageStartingWith("Unknown query 'nope' (queries: daily-stats, six-hourly-totals,");
  }

  private static QueryFigures query(String name) {
    return report.queries().stream().filter(q -> q.query().equals(name)).findFirst().orElseThrow();
  }
}

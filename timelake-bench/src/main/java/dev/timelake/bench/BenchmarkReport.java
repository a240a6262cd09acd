package dev.timelake.bench;

import static java.util.Objects.requireNonNull;

import dev.timelake.TimelakeException;
import dev.timelake.iiot.Scale;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The figures of one benchmark run: per query and configuration the timed runs, rows and whether
 * the answers agree; the loading and maintenance figures; what the data and the machine were.
 * Renders as Markdown, JSON and an SVG bar plot.
 *
 * @param scale the plant's scale
 * @param machine the machine, one line
 * @param started when the run started
 * @param runs timed runs per query and configuration
 * @param warmUp whether a warm-up pass came first
 * @param data the readings table as the queries saw it
 * @param queries the query set on the table as loaded
 * @param afterMaintenance queries measured again after maintenance
 * @param operations loading, rollup and maintenance figures, in the order they ran
 */
public record BenchmarkReport(
    Scale scale,
    String machine,
    Instant started,
    int runs,
    boolean warmUp,
    String data,
    List<QueryFigures> queries,
    List<QueryFigures> afterMaintenance,
    List<OperationFigure> operations) {
  /** The files {@link #write} creates. */
  public static final String MARKDOWN_FILE = "results.md";

  public static final String JSON_FILE = "results.json";
  public static final String SVG_FILE = "queries.svg";

  public BenchmarkReport {
    requireNonNull(scale, "scale is null");
    requireNonNull(machine, "machine is null");
    requireNonNull(started, "started is null");
    requireNonNull(data, "data is null");
    queries = List.copyOf(queries);
    afterMaintenance = List.copyOf(afterMaintenance);
    operations = List.copyOf(operations);
  }

  /** The order of the configurations in the tables and the plot. */
  private static final List<Configuration> ORDER =
      List.of(
          Configuration.DUCKDB,
          Configuration.DUCKDB_QUALIFY,
          Configuration.TIMELAKE,
          Configuration.TIMELAKE_ROUTED,
          Configuration.QUESTDB,
          Configuration.QUESTDB_VIEWS);

  /**
   * The configurations to show for {@code queries}, in report order: the four Timelake and DuckDB
   * ones always, the others (QuestDB) where one of the queries ran in them.
   */
  static List<Configuration> shownConfigurations(List<QueryFigures> queries) {
    return ORDER.stream()
        .filter(
            c ->
                c.ordinal() <= Configuration.DUCKDB_QUALIFY.ordinal()
                    || queries.stream().anyMatch(q -> q.of(c).isPresent()))
        .toList();
  }

  /** True when, for every query, Timelake, Timelake routed and DuckDB with QUALIFY agree. */
  public boolean answersAgree() {
    return queries.stream().allMatch(QueryFigures::answersAgree)
        && afterMaintenance.stream().allMatch(QueryFigures::answersAgree);
  }

  /** The report as Markdown: the query tables and the loading and maintenance figures. */
  public String markdown() {
    return ReportMarkdown.render(this);
  }

  /** Every figure as JSON, times in milliseconds. */
  public String json() {
    return ReportJson.render(this);
  }

  /** A bar plot of the median query times, one bar per configuration, log-scale time axis. */
  public String svg() {
    return ReportSvg.render(this);
  }

  /** Writes {@value #MARKDOWN_FILE}, {@value #JSON_FILE} and {@value #SVG_FILE} into a folder. */
  public void write(Path directory) {
    try {
      Files.createDirectories(directory);
      Files.writeString(directory.resolve(MARKDOWN_FILE), markdown(), StandardCharsets.UTF_8);
      Files.writeString(directory.resolve(JSON_FILE), json(), StandardCharsets.UTF_8);
      Files.writeString(directory.resolve(SVG_FILE), svg(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw TimelakeException.validation(
          "Cannot write the benchmark results to %s: %s", directory, e.getMessage());
    }
  }
}

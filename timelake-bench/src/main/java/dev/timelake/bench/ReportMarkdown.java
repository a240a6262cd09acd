package dev.timelake.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Renders a {@link BenchmarkReport} as Markdown tables. */
final class ReportMarkdown {
  private ReportMarkdown() {}

  static String render(BenchmarkReport report) {
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "Scale %s, %s; started %s.%n%n",
            report.scale().label(),
            report.machine(),
            report.started().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
    text.append(
        String.format(
            Locale.ROOT,
            "Each cell: min / median of %d run%s%s, in ms; (×) is the median over plain DuckDB's."
                + " Answers: timelake, timelake-routed and duckdb-qualify must agree; plain duckdb"
                + " keeps the copies; timelake-routed is measured where the query is routed (elsewhere"
                + " it runs timelake's plan).%n%n",
            report.runs(),
            report.runs() == 1 ? "" : "s",
            report.warmUp() ? " after a warm-up" : ", no warm-up"));
    text.append("### Queries on the table as loaded\n\n").append(report.data()).append("\n\n");
    table(text, report.queries(), BenchmarkReport.shownConfigurations(report.queries()));
    againstQuestdb(text, report.queries());
    if (!report.afterMaintenance().isEmpty()) {
      text.append("\n### After `maintain` (files compacted, copies removed)\n\n");
      table(
          text,
          report.afterMaintenance(),
          BenchmarkReport.shownConfigurations(report.afterMaintenance()));
    }
    text.append("\n### Loading, rollups and maintenance\n\n");
    text.append("| operation | time | detail |\n|---|---:|---|\n");
    for (OperationFigure figure : report.operations()) {
      text.append("| ")
          .append(figure.name())
          .append(" | ")
          .append(figure.took().map(ReportMarkdown::seconds).orElse("—"))
          .append(" | ")
          .append(escape(figure.detail()))
          .append(" |\n");
    }
    return text.toString();
  }

  private static void table(
      StringBuilder text, List<QueryFigures> queries, List<Configuration> columns) {
    text.append("| query | rows |");
    columns.forEach(c -> text.append(' ').append(c.label()).append(" |"));
    text.append(" routed | answers |\n|---|---:|");
    columns.forEach(c -> text.append("---:|"));
    text.append("---|---|\n");
    for (QueryFigures query : queries) {
      long rows = query.of(Configuration.TIMELAKE).map(ConfigurationFigures::rows).orElse(0L);
      text.append("| ")
          .append(query.query())
          .append(" | ")
          .append(String.format(Locale.ROOT, "%,d", rows))
          .append(" |");
      for (Configuration configuration : columns) {
        text.append(' ').append(cell(query, configuration)).append(" |");
      }
      text.append(' ')
          .append(query.routed() ? "yes" : "no")
          .append(" | ")
          .append(escape(answers(query)))
          .append(" |\n");
    }
  }

  /**
   * Timelake's answer (routed where routed) over QuestDB's raw table and over its views, per query
   * and as geometric means; nothing when QuestDB did not run.
   */
  private static void againstQuestdb(StringBuilder text, List<QueryFigures> queries) {
    List<QueryFigures> asked =
        queries.stream().filter(q -> q.median(Configuration.QUESTDB).isPresent()).toList();
    if (asked.isEmpty()) {
      return;
    }
    text.append("\n### Against QuestDB\n\n")
        .append(
            "Timelake's answer (timelake-routed where the query is routed, else timelake) over"
                + " QuestDB's median on its raw table and on the view a QuestDB user would pick;"
                + " below 1 Timelake is faster. QuestDB is queried over its PostgreSQL protocol on"
                + " loopback, Timelake in process.\n\n")
        .append("| query | timelake | questdb | × questdb | questdb-views | × views | best |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|\n");
    double logRaw = 0;
    double logBest = 0;
    for (QueryFigures query : asked) {
      Configuration ours = query.timelakeAnswer();
      double raw = query.ratio(ours, Configuration.QUESTDB).orElse(Double.NaN);
      Optional<Double> views = query.ratio(ours, Configuration.QUESTDB_VIEWS);
      double best = views.map(v -> Math.max(v, raw)).orElse(raw);
      logRaw += Math.log(raw);
      logBest += Math.log(best);
      text.append("| ")
          .append(query.query())
          .append(ours == Configuration.TIMELAKE_ROUTED ? " (r)" : "")
          .append(" | ")
          .append(query.median(ours).map(ReportMarkdown::millis).orElse("—"))
          .append(" | ")
          .append(query.median(Configuration.QUESTDB).map(ReportMarkdown::millis).orElse("—"))
          .append(" | ")
          .append(ratio(raw))
          .append(" | ")
          .append(query.median(Configuration.QUESTDB_VIEWS).map(ReportMarkdown::millis).orElse("—"))
          .append(" | ")
          .append(views.map(ReportMarkdown::ratio).orElse("—"))
          .append(" | ")
          .append(ratio(best))
          .append(" |\n");
    }
    text.append(
        String.format(
            Locale.ROOT,
            "| **geometric mean** (%d queries) | | | **%s** | | | **%s** |\n",
            asked.size(),
            ratio(Math.exp(logRaw / asked.size())),
            ratio(Math.exp(logBest / asked.size()))));
  }

  private static String ratio(double ratio) {
    return Double.isNaN(ratio) ? "—" : String.format(Locale.ROOT, "%.2f×", ratio);
  }

  private static String cell(QueryFigures query, Configuration configuration) {
    Optional<ConfigurationFigures> figures = query.of(configuration);
    if (figures.isEmpty()) {
      return switch (configuration) {
        case TIMELAKE_ROUTED -> "= timelake (not routed)";
        case QUESTDB_VIEWS -> "no view";
        default -> "—";
      };
    }
    if (figures.get().failure().isPresent()) {
      return "failed";
    }
    String times =
        figures.get().min().map(ReportMarkdown::millis).orElse("—")
            + " / "
            + figures.get().median().map(ReportMarkdown::millis).orElse("—");
    if (configuration == Configuration.DUCKDB) {
      return times;
    }
    return times
        + query.ratio(configuration).map(r -> String.format(Locale.ROOT, " (%.2f×)", r)).orElse("");
  }

  private static String answers(QueryFigures query) {
    List<String> notes = new ArrayList<>();
    for (ConfigurationFigures figures : query.configurations()) {
      String label = figures.configuration().label();
      if (figures.failure().isPresent()) {
        notes.add(label + " failed: " + figures.failure().get());
      } else if (figures.difference().isPresent()) {
        notes.add(
            (figures.configuration().removesCopies() ? "DIFFER " : "")
                + label
                + ": "
                + figures.difference().get());
      }
    }
    String verdict = query.answersAgree() ? "agree" : "DISAGREE";
    return notes.isEmpty() ? verdict + " (duckdb too)" : verdict + "; " + String.join("; ", notes);
  }

  static String millis(Duration duration) {
    double ms = duration.toNanos() / 1e6;
    if (ms < 10) {
      return String.format(Locale.ROOT, "%.2f", ms);
    }
    if (ms < 100) {
      return String.format(Locale.ROOT, "%.1f", ms);
    }
    return String.format(Locale.ROOT, "%,.0f", ms);
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.2f s", duration.toNanos() / 1e9);
  }

  private static String escape(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}

package dev.timelake.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Draws the median query times of a {@link BenchmarkReport} as horizontal bars: one group per
 * query, one bar per configuration, on a log-scale time axis, each bar labelled with its time.
 * Plain SVG written by hand.
 */
final class ReportSvg {
  private static final Map<Configuration, String> COLORS =
      Map.of(
          Configuration.DUCKDB, "#8c8c8c",
          Configuration.DUCKDB_QUALIFY, "#e6a23c",
          Configuration.TIMELAKE, "#2f6db5",
          Configuration.TIMELAKE_ROUTED, "#3a9a4a",
          Configuration.QUESTDB, "#b5452f",
          Configuration.QUESTDB_VIEWS, "#8e5bb5");

  private static final int WIDTH = 960;
  private static final int LEFT = 210;
  private static final int RIGHT = 70;
  private static final int TOP = 78;
  private static final int BAR = 11;
  private static final int GROUP_GAP = 12;
  private static final int BOTTOM = 44;

  private ReportSvg() {}

  /** One group of bars: a label and the median of each configuration. */
  private record Group(String label, boolean routed, List<Optional<Duration>> medians) {}

  static String render(BenchmarkReport report) {
    List<Configuration> bars =
        BenchmarkReport.shownConfigurations(
            Stream.concat(report.queries().stream(), report.afterMaintenance().stream()).toList());
    List<Group> groups = new ArrayList<>();
    report.queries().forEach(q -> groups.add(group(q.query(), q, bars)));
    report.afterMaintenance().forEach(q -> groups.add(group(q.query() + " (maintained)", q, bars)));
    double lowest = Double.MAX_VALUE;
    double highest = 0;
    for (Group group : groups) {
      for (Optional<Duration> median : group.medians()) {
        if (median.isPresent()) {
          double ms = Math.max(median.get().toNanos() / 1e6, 1e-3);
          lowest = Math.min(lowest, ms);
          highest = Math.max(highest, ms);
        }
      }
    }
    if (highest == 0) {
      lowest = 1;
      highest = 10;
    }
    int firstDecade = (int) Math.floor(Math.log10(lowest));
    int lastDecade = Math.max(firstDecade + 1, (int) Math.ceil(Math.log10(highest)));
    int groupHeight = bars.size() * BAR + GROUP_GAP;
    int plotHeight = groups.size() * groupHeight;
    int height = TOP + plotHeight + BOTTOM;
    double plotWidth = WIDTH - LEFT - RIGHT;
    Axis axis = new Axis(firstDecade, lastDecade, plotWidth);

    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d"
                + " %d\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">%n",
            WIDTH,
            height,
            WIDTH,
            height));
    svg.append(
        String.format(
            Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
    svg.append(
        text(
            LEFT - 200,
            20,
            "start",
            "font-size=\"15\" font-weight=\"bold\"",
            "IIoT benchmark, "
                + report.scale().label()
                + " scale: median query time (log scale, lower is better)"));
    svg.append(
        text(
            LEFT - 200,
            38,
            "start",
            "fill=\"#555\"",
            report.machine()
                + "; median of "
                + report.runs()
                + (report.runs() == 1 ? " run" : " runs")
                + "; (r) = routed to a rollup"));
    legend(svg, bars);
    for (int decade = firstDecade; decade <= lastDecade; decade++) {
      double x = LEFT + axis.x(Math.pow(10, decade));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
              x,
              TOP - 4,
              x,
              TOP + plotHeight));
      svg.append(text(x, TOP + plotHeight + 16, "middle", "fill=\"#555\"", timeLabel(decade)));
    }
    svg.append(
        text(
            LEFT + plotWidth / 2,
            TOP + plotHeight + 34,
            "middle",
            "fill=\"#555\"",
            "median time per query"));
    int y = TOP;
    for (Group group : groups) {
      svg.append(
          text(
              LEFT - 8,
              y + bars.size() * BAR / 2.0 + 4,
              "end",
              "",
              group.label() + (group.routed() ? " (r)" : "")));
      for (int i = 0; i < bars.size(); i++) {
        Optional<Duration> median = group.medians().get(i);
        int barY = y + i * BAR;
        if (median.isEmpty()) {
          String missing =
              switch (bars.get(i)) {
                case TIMELAKE_ROUTED -> group.routed() ? "n/a" : "not routed: as timelake";
                case QUESTDB_VIEWS -> "no view";
                default -> "n/a";
              };
          svg.append(text(LEFT + 4, barY + BAR - 2, "start", "fill=\"#999\"", missing));
          continue;
        }
        double ms = median.get().toNanos() / 1e6;
        double w = Math.max(1, axis.x(Math.max(ms, 1e-3)));
        svg.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %s"
                    + " ms</title></rect>%n",
                LEFT,
                barY,
                w,
                BAR - 1,
                COLORS.get(bars.get(i)),
                bars.get(i).label(),
                ReportMarkdown.millis(median.get())));
        svg.append(
            text(
                LEFT + w + 3,
                barY + BAR - 2,
                "start",
                "font-size=\"9\" fill=\"#333\"",
                ReportMarkdown.millis(median.get())));
      }
      y += groupHeight;
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n",
            LEFT,
            TOP - 4,
            LEFT,
            TOP + plotHeight));
    return svg.append("</svg>\n").toString();
  }

  /** Maps milliseconds to a distance from the axis origin. */
  private record Axis(int firstDecade, int lastDecade, double width) {
    double x(double ms) {
      double position = (Math.log10(ms) - firstDecade) / (lastDecade - firstDecade);
      return Math.max(0, position) * width;
    }
  }

  private static Group group(String label, QueryFigures query, List<Configuration> bars) {
    List<Optional<Duration>> medians = new ArrayList<>();
    for (Configuration configuration : bars) {
      medians.add(
          query
              .of(configuration)
              .filter(f -> f.failure().isEmpty())
              .flatMap(ConfigurationFigures::median));
    }
    return new Group(label, query.routed(), medians);
  }

  private static void legend(StringBuilder svg, List<Configuration> bars) {
    double x = LEFT - 200;
    for (int i = 0; i < bars.size(); i++) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"50\" width=\"12\" height=\"10\" fill=\"%s\"/>%n",
              x,
              COLORS.get(bars.get(i))));
      svg.append(text(x + 16, 59, "start", "", bars.get(i).label()));
      x += 30 + bars.get(i).label().length() * 6.5;
    }
  }

  private static String timeLabel(int decade) {
    if (decade < 0) {
      return String.format(Locale.ROOT, "%s ms", Math.pow(10, decade));
    }
    if (decade < 3) {
      return String.format(Locale.ROOT, "%d ms", (long) Math.pow(10, decade));
    }
    return String.format(Locale.ROOT, "%d s", (long) Math.pow(10, decade - 3));
  }

  private static String text(double x, double y, String anchor, String attributes, String text) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>%s</text>%n",
        x,
        y,
        anchor,
        attributes.isEmpty() ? "" : " " + attributes,
        escape(text));
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}

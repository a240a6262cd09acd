package dev.timelake.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Renders a {@link BenchmarkReport} as JSON, by hand: the report is small and flat. */
final class ReportJson {
  private ReportJson() {}

  static String render(BenchmarkReport report) {
    List<String> fields = new ArrayList<>();
    fields.add(field("scale", string(report.scale().label())));
    fields.add(field("machine", string(report.machine())));
    fields.add(field("started", string(report.started().toString())));
    fields.add(field("runs", Integer.toString(report.runs())));
    fields.add(field("warmUp", Boolean.toString(report.warmUp())));
    fields.add(field("data", string(report.data())));
    fields.add(field("answersAgree", Boolean.toString(report.answersAgree())));
    fields.add(field("queries", array(report.queries().stream().map(ReportJson::query).toList())));
    fields.add(
        field(
            "afterMaintenance",
            array(report.afterMaintenance().stream().map(ReportJson::query).toList())));
    fields.add(
        field(
            "operations", array(report.operations().stream().map(ReportJson::operation).toList())));
    return object(fields) + "\n";
  }

  private static String query(QueryFigures query) {
    List<String> fields = new ArrayList<>();
    fields.add(field("query", string(query.query())));
    fields.add(field("description", string(query.description())));
    fields.add(field("sql", string(query.sql())));
    fields.add(field("routed", Boolean.toString(query.routed())));
    fields.add(field("answersAgree", Boolean.toString(query.answersAgree())));
    fields.add(
        field("explanation", array(query.explanation().stream().map(ReportJson::string).toList())));
    List<String> configurations = new ArrayList<>();
    for (ConfigurationFigures figures : query.configurations()) {
      List<String> values = new ArrayList<>();
      values.add(field("configuration", string(figures.configuration().label())));
      values.add(field("runsMs", array(figures.runs().stream().map(ReportJson::millis).toList())));
      values.add(field("minMs", figures.min().map(ReportJson::millis).orElse("null")));
      values.add(field("medianMs", figures.median().map(ReportJson::millis).orElse("null")));
      values.add(
          field(
              "ratioToDuckdb",
              query.ratio(figures.configuration()).map(ReportJson::number).orElse("null")));
      values.add(field("rows", Long.toString(figures.rows())));
      values.add(field("checksum", number(figures.checksum())));
      values.add(field("agrees", Boolean.toString(figures.agrees())));
      values.add(field("difference", optional(figures.difference())));
      values.add(field("failure", optional(figures.failure())));
      configurations.add(object(values));
    }
    fields.add(field("configurations", array(configurations)));
    return object(fields);
  }

  private static String operation(OperationFigure figure) {
    return object(
        List.of(
            field("name", string(figure.name())),
            field("seconds", figure.took().map(d -> number(d.toNanos() / 1e9)).orElse("null")),
            field("detail", string(figure.detail()))));
  }

  private static String millis(Duration duration) {
    return number(Math.round(duration.toNanos() / 1e3) / 1e3);
  }

  private static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "null";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }

  private static String optional(Optional<String> value) {
    return value.map(ReportJson::string).orElse("null");
  }

  private static String field(String name, String json) {
    return string(name) + ": " + json;
  }

  private static String object(List<String> fields) {
    return "{" + String.join(", ", fields) + "}";
  }

  private static String array(List<String> values) {
    return "[" + String.join(", ", values) + "]";
  }

  static String string(String text) {
    StringBuilder json = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"').toString();
  }
}

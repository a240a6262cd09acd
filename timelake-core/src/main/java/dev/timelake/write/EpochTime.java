package dev.timelake.write;

import static java.util.Objects.requireNonNull;

import dev.timelake.engine.SqlText;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * An integer time column read as a count of {@code unit}s since 1970-01-01T00:00:00Z: the input is
 * wrapped so that the column arrives as a timestamp without time zone, which the alignment then
 * takes as UTC (nanoseconds as {@code TIMESTAMP_NS}, checked there to be whole microseconds).
 */
record EpochTime(InputColumn column, ChronoUnit unit) {
  EpochTime {
    requireNonNull(column, "column is null");
    requireNonNull(unit, "unit is null");
  }

  /** {@code relation} with the column converted. */
  String relation(String relation) {
    return "(SELECT * REPLACE ("
        + expression()
        + " AS "
        + SqlText.identifier(column.name())
        + ") FROM "
        + relation
        + ")";
  }

  /** The input's columns once converted. */
  List<InputColumn> converted(List<InputColumn> input) {
    return input.stream()
        .map(c -> c.equals(column) ? new InputColumn(c.name(), convertedType()) : c)
        .toList();
  }

  private String convertedType() {
    return unit == ChronoUnit.NANOS ? "TIMESTAMP_NS" : "TIMESTAMP";
  }

  private String expression() {
    String count = "CAST(" + SqlText.identifier(column.name()) + " AS BIGINT)";
    return switch (unit) {
      case SECONDS -> "make_timestamp(" + count + " * 1000000)";
      case MILLIS -> "make_timestamp(" + count + " * 1000)";
      case MICROS -> "make_timestamp(" + count + ")";
      case NANOS -> "make_timestamp_ns(" + count + ")";
      default -> throw new IllegalArgumentException("not an epoch unit: " + unit);
    };
  }
}

package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One aggregate as a query asks for it or a rollup stores it: the function's canonical name, the
 * raw column it reads (empty for {@code count(*)}) and its constant arguments in canonical form (a
 * mode, a threshold; none for the aggregates of the first version). Two calls that compute the same
 * thing are equal.
 */
public record AggregateCall(String function, Optional<String> column, List<String> arguments) {
  public AggregateCall {
    function = requireNonNull(function, "function is null").toLowerCase(Locale.ROOT);
    requireNonNull(column, "column is null");
    arguments = List.copyOf(arguments);
  }

  /** {@code count(*)}. */
  public static AggregateCall countRows() {
    return new AggregateCall("count", Optional.empty(), List.of());
  }

  /** {@code function(column)} without arguments. */
  public static AggregateCall of(String function, String column) {
    return new AggregateCall(function, Optional.of(column), List.of());
  }

  /** The raw column; throws for {@code count(*)}. */
  public String requireColumn() {
    return column.orElseThrow(() -> new IllegalStateException(this + " reads no column"));
  }

  /** E.g. {@code avg(value)}, {@code count(*)}, {@code gap_count(time, 300s)}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(function).append('(').append(column.orElse("*"));
    arguments.forEach(argument -> text.append(", ").append(argument));
    return text.append(')').toString();
  }
}

package dev.timelake.rollup;

import dev.timelake.table.TableContract;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.expression.Function;

/**
 * The registry of aggregates rollups store and routing answers: one {@link Aggregate} per function,
 * found by its SQL name or an alias ({@code first} and {@code last}, DuckDB's names of the ordered
 * {@code first_value} and {@code last_value}).
 */
public final class Aggregates {
  private static final Map<String, Aggregate> BY_NAME = new LinkedHashMap<>();
  private static final Map<String, String> ALIASES =
      Map.of("first", "first_value", "last", "last_value");

  static {
    for (Aggregate aggregate :
        new Aggregate[] {
          new CountAggregate(),
          new SumAggregate(),
          ExtremeAggregate.min(),
          ExtremeAggregate.max(),
          new AverageAggregate(),
          EdgeAggregate.firstValue(),
          EdgeAggregate.lastValue(),
          new M4Aggregate(),
          TimeWeightedAggregate.state(),
          TimeWeightedAggregate.mean(),
          TimeWeightedAggregate.integral(),
          GapAggregate.state(),
          GapAggregate.count(),
          GapAggregate.seconds(),
          PercentileAggregate.sketch(),
          PercentileAggregate.percentile()
        }) {
      BY_NAME.put(aggregate.name(), aggregate);
    }
  }

  private Aggregates() {}

  /** The aggregate called {@code name} (any case, aliases included). */
  public static Optional<Aggregate> find(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return Optional.ofNullable(BY_NAME.get(ALIASES.getOrDefault(lower, lower)));
  }

  /** The aggregate computing {@code call}. */
  public static Aggregate of(AggregateCall call) {
    return find(call.function())
        .orElseThrow(() -> new IllegalArgumentException("unknown aggregate " + call));
  }

  /** True when {@code function} calls an aggregate of the registry. */
  public static boolean isKnown(Function function) {
    return find(function.getName()).isPresent();
  }

  /**
   * What a rollup may store, for error messages about a table whose time column is {@code time}.
   */
  public static String allowed(String time) {
    return "count(*), count(x), sum, min, max, avg, first_value and last_value ordered by "
        + time
        + ", m4("
        + time
        + ", x), time_weighted_state, time_weighted_mean and integral("
        + time
        + ", x), gap_state, gap_count and gap_seconds("
        + time
        + ", threshold), percentile_sketch(x) and approx_percentile(x, q)";
  }

  /**
   * The call {@code function} makes on {@code raw}.
   *
   * @throws UnsupportedPart naming what is wrong: an unknown aggregate or a malformed call
   */
  public static AggregateCall parse(Function function, TableContract raw) {
    Aggregate aggregate =
        find(function.getName())
            .orElseThrow(
                () ->
                    new UnsupportedPart(
                        "aggregate "
                            + function
                            + " is not supported (allowed: "
                            + allowed(raw.timeColumn().orElse("time"))
                            + ")"));
    return aggregate.parse(function, raw);
  }
}

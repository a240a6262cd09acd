package dev.timelake.rollup;

import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.CalendarGrid;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimezoneExpression;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;

/**
 * The bucket grid of an expression that buckets a time column, in any of the spellings SQL users
 * and dashboards send: {@code time_bucket(width, time [, origin | offset])}, {@code date_bin(width,
 * time [, origin])}, {@code date_trunc('unit', time)} and Grafana's {@code $__timeGroup} without
 * its TimescaleDB option, {@code floor(extract(epoch from time)/n)*n} (the bucket's start in
 * seconds since 1970, a number). Instants are bucketed in UTC unless a time zone is named: the
 * third argument of {@code time_bucket}, {@code date_trunc('unit', time AT TIME ZONE 'zone')}, or
 * the session's zone for {@code date_trunc} of the instants themselves. Local days, weeks, months,
 * quarters and years of a zone with transitions are a {@link CalendarGrid}; a sub-day width in a
 * zone is a fixed grid only where the zone's offset never changes or DuckDB keeps it fixed ({@code
 * time_bucket} counts it from the zone's 2000-01-03 00:00).
 */
public final class BucketSpellings {
  private static final long SECOND = 1_000_000L;

  /** date_trunc units shorter than a day, and their width in µs. */
  private static final Map<String, Long> TRUNC_UNITS =
      Map.of(
          "microseconds",
          1L,
          "milliseconds",
          1_000L,
          "second",
          SECOND,
          "minute",
          60 * SECOND,
          "hour",
          3_600 * SECOND);

  /** date_trunc units of local days and months, as (unit, count); weeks start on Monday. */
  private static final Map<String, Map.Entry<ChronoUnit, Integer>> CALENDAR_UNITS =
      Map.of(
          "day", Map.entry(ChronoUnit.DAYS, 1),
          "week", Map.entry(ChronoUnit.DAYS, 7),
          "month", Map.entry(ChronoUnit.MONTHS, 1),
          "quarter", Map.entry(ChronoUnit.MONTHS, 3),
          "year", Map.entry(ChronoUnit.MONTHS, 12));

  private static final Map<String, String> TRUNC_ALIASES =
      Map.ofEntries(
          Map.entry("microsecond", "microseconds"),
          Map.entry("us", "microseconds"),
          Map.entry("usec", "microseconds"),
          Map.entry("usecs", "microseconds"),
          Map.entry("millisecond", "milliseconds"),
          Map.entry("ms", "milliseconds"),
          Map.entry("msec", "milliseconds"),
          Map.entry("msecs", "milliseconds"),
          Map.entry("seconds", "second"),
          Map.entry("s", "second"),
          Map.entry("sec", "second"),
          Map.entry("secs", "second"),
          Map.entry("minutes", "minute"),
          Map.entry("m", "minute"),
          Map.entry("min", "minute"),
          Map.entry("mins", "minute"),
          Map.entry("hours", "hour"),
          Map.entry("h", "hour"),
          Map.entry("hr", "hour"),
          Map.entry("hrs", "hour"),
          Map.entry("days", "day"),
          Map.entry("d", "day"),
          Map.entry("weeks", "week"),
          Map.entry("w", "week"),
          Map.entry("months", "month"),
          Map.entry("mon", "month"),
          Map.entry("mons", "month"),
          Map.entry("quarters", "quarter"),
          Map.entry("years", "year"),
          Map.entry("y", "year"),
          Map.entry("yr", "year"),
          Map.entry("yrs", "year"));

  private BucketSpellings() {}

  /** True when {@code expression} is a call of one of the bucket functions. */
  public static boolean isBucketCall(Expression expression) {
    return expression instanceof Function function && kind(function).isPresent();
  }

  /** {@link #grid(Expression, String, ConstantEvaluator, ZoneId)} in a UTC session. */
  public static Optional<BucketGrid> grid(
      Expression expression, String timeColumn, ConstantEvaluator constants) {
    return grid(expression, timeColumn, constants, ZoneOffset.UTC);
  }

  /**
   * The grid of {@code expression}, which buckets {@code timeColumn} in a session whose time zone
   * is {@code session}; empty when it is not a call of a bucket function on that column.
   *
   * @throws UnsupportedPart when it is such a call but its grid cannot be known (a non-constant
   *     width, an unknown time zone, local hours of a zone that changes its clocks)
   */
  public static Optional<BucketGrid> grid(
      Expression expression, String timeColumn, ConstantEvaluator constants, ZoneId session) {
    Optional<Long> seconds = epochSecondsWidth(expression, timeColumn);
    if (seconds.isPresent()) {
      return Optional.of(BucketGrid.of(seconds.get() * SECOND, BucketGrid.EPOCH_ORIGIN_MICROS));
    }
    if (!(expression instanceof Function function)) {
      return Optional.empty();
    }
    Optional<String> kind = kind(function);
    ExpressionList<?> parameters = function.getParameters();
    if (kind.isEmpty() || parameters == null || parameters.size() < 2) {
      return Optional.empty();
    }
    Expression bucketed = parameters.get(1);
    if (kind.get().equals("date_trunc")
        && bucketed instanceof TimezoneExpression local
        && isColumn(local.getLeftExpression(), timeColumn)) {
      return Optional.of(truncGrid(function, parameters, localZone(function, local)));
    }
    if (!isColumn(bucketed, timeColumn)) {
      return Optional.empty();
    }
    return Optional.of(
        switch (kind.get()) {
          case "date_trunc" -> truncGrid(function, parameters, session);
          case "date_bin" ->
              widthGrid(function, parameters, BucketGrid.EPOCH_ORIGIN_MICROS, constants);
          default ->
              widthGrid(function, parameters, BucketGrid.TIME_BUCKET_ORIGIN_MICROS, constants);
        });
  }

  private static Optional<String> kind(Function function) {
    String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
    return switch (name) {
      case "time_bucket", "date_bin" -> Optional.of(name);
      case "date_trunc", "datetrunc" -> Optional.of("date_trunc");
      default -> Optional.empty();
    };
  }

  /**
   * The grid of {@code date_trunc(unit, …)} in {@code zone}: local dates from a day up, local hours
   * and shorter where the zone's offset never changes. Local dates start at the earlier of two
   * midnights where a zone repeats one, and time_bucket's at the later; such zones are refused
   * rather than given a grid that is not DuckDB's.
   */
  private static BucketGrid truncGrid(
      Function function, ExpressionList<?> parameters, ZoneId zone) {
    if (parameters.size() != 2 || !(parameters.get(0) instanceof StringValue unit)) {
      throw new UnsupportedPart(function + " must name its unit as a string literal");
    }
    String name = unit.getValue().toLowerCase(Locale.ROOT).strip();
    name = TRUNC_ALIASES.getOrDefault(name, name);
    ZoneId normalized = zone.normalized();
    Long width = TRUNC_UNITS.get(name);
    if (width != null) {
      if (!(normalized instanceof ZoneOffset offset)) {
        throw new UnsupportedPart(
            function
                + " truncates to local "
                + name
                + "s of "
                + zone.getId()
                + ", whose offset changes; local days and longer are routed");
      }
      return BucketGrid.of(width, -offset.getTotalSeconds() * SECOND);
    }
    Map.Entry<ChronoUnit, Integer> calendar = CALENDAR_UNITS.get(name);
    if (calendar == null) {
      throw new UnsupportedPart(
          function + " has no grid rollups know (units: microseconds to year, not decades)");
    }
    return calendar(function, normalized, calendar.getKey(), calendar.getValue(), false);
  }

  private static BucketGrid calendar(
      Function function, ZoneId zone, ChronoUnit unit, int count, boolean laterMidnight) {
    if (unit == ChronoUnit.DAYS && count > 1 && CalendarGrid.skipsADay(zone)) {
      throw new UnsupportedPart(
          function
              + ": "
              + zone.getId()
              + " once skipped a whole local day, after which DuckDB counts buckets of several"
              + " days differently from the calendar");
    }
    return CalendarGrid.of(zone, unit, count, laterMidnight);
  }

  /** The zone of {@code time AT TIME ZONE 'zone'}: a constant name DuckDB and Java both know. */
  private static ZoneId localZone(Function function, TimezoneExpression local) {
    if (local.getTimezoneExpressions().size() != 1) {
      throw new UnsupportedPart(function + " converts the time to a time zone more than once");
    }
    return zone(function, local.getTimezoneExpressions().get(0));
  }

  private static ZoneId zone(Function function, Expression spelled) {
    if (!(spelled instanceof StringValue literal)) {
      throw new UnsupportedPart(
          function + ": the time zone " + spelled + " must be a string literal such as 'UTC'");
    }
    String name = literal.getValue();
    try {
      return ZoneId.of(name);
    } catch (java.time.DateTimeException e) {
      throw new UnsupportedPart(
          function
              + ": unknown time zone '"
              + name
              + "' (a name of the IANA time zone database, such as 'Europe/Berlin')");
    }
  }

  private static BucketGrid widthGrid(
      Function function,
      ExpressionList<?> parameters,
      long defaultOrigin,
      ConstantEvaluator constants) {
    if (parameters.size() > 3) {
      throw new UnsupportedPart(function + " has more arguments than (width, time, origin)");
    }
    Expression widthExpression = parameters.get(0);
    ConstantEvaluator.IntervalParts parts =
        constants
            .intervalParts(widthExpression)
            .filter(p -> p.months() >= 0 && p.days() >= 0 && p.micros() >= 0)
            .orElseThrow(
                () ->
                    new UnsupportedPart(
                        "bucket width "
                            + widthExpression
                            + " must be a constant interval such as INTERVAL '1 minute'"));
    boolean timeBucket = function.getName().equalsIgnoreCase("time_bucket");
    Optional<Map.Entry<ChronoUnit, Integer>> calendar = calendarWidth(function, parts);
    String thirdType = parameters.size() == 3 ? typeOf(parameters.get(2), constants) : "";
    if (timeBucket && thirdType.equals("VARCHAR")) {
      ZoneId zone = zone(function, parameters.get(2));
      if (calendar.isPresent()) {
        return calendar(function, zone, calendar.get().getKey(), calendar.get().getValue(), true);
      }
      // DuckDB counts sub-day widths in a zone from the zone's 2000-01-03 00:00, in fixed steps.
      long origin =
          java.time.LocalDate.of(2000, 1, 3).atStartOfDay(zone).toInstant().toEpochMilli() * 1000;
      return BucketGrid.of(fixedWidth(widthExpression, parts), origin);
    }
    if (calendar.isPresent() && calendar.get().getKey() == ChronoUnit.MONTHS) {
      if (!timeBucket || parameters.size() == 3) {
        throw new UnsupportedPart(
            function
                + ": months and years are bucketed from January 2000 by time_bucket(width,"
                + " time [, 'zone']); another origin or offset is not supported");
      }
      return CalendarGrid.of(ZoneOffset.UTC, ChronoUnit.MONTHS, calendar.get().getValue());
    }
    long width = fixedWidth(widthExpression, parts);
    if (parameters.size() == 2) {
      return BucketGrid.of(width, defaultOrigin);
    }
    Expression third = parameters.get(2);
    if (thirdType.startsWith("TIMESTAMP")) {
      long origin =
          constants
              .micros(third)
              .orElseThrow(() -> new UnsupportedPart("origin " + third + " is not a constant"));
      return BucketGrid.of(width, origin);
    }
    if (thirdType.equals("INTERVAL") && !timeBucket) {
      throw new UnsupportedPart(
          function + ": date_bin takes an origin timestamp, not an offset interval");
    }
    if (thirdType.equals("INTERVAL")) {
      long offset =
          constants
              .fixedWidthMicros(third)
              .orElseThrow(
                  () ->
                      new UnsupportedPart(
                          "offset " + third + " must be a positive fixed interval"));
      return BucketGrid.of(width, defaultOrigin + offset);
    }
    throw new UnsupportedPart(
        function
            + ": the third argument must be a constant origin timestamp, offset interval or"
            + " time zone name");
  }

  /**
   * Local days or months: a width of whole months (years are 12) or of whole days, with nothing
   * else; empty for a width in µs.
   */
  private static Optional<Map.Entry<ChronoUnit, Integer>> calendarWidth(
      Function function, ConstantEvaluator.IntervalParts parts) {
    boolean months = parts.months() > 0;
    boolean days = parts.days() > 0;
    if ((months && (days || parts.micros() > 0)) || (days && parts.micros() > 0)) {
      throw new UnsupportedPart(
          function
              + ": a width that mixes months, days and hours has no grid; use one unit (INTERVAL"
              + " '1 month', '1 day' or '36 hours')");
    }
    if (months) {
      return Optional.of(Map.entry(ChronoUnit.MONTHS, Math.toIntExact(parts.months())));
    }
    return days
        ? Optional.of(Map.entry(ChronoUnit.DAYS, Math.toIntExact(parts.days())))
        : Optional.empty();
  }

  /** The width in µs of a width with no months (a day is 24 hours outside a time zone). */
  private static long fixedWidth(Expression width, ConstantEvaluator.IntervalParts parts) {
    long micros = parts.days() * 86_400 * SECOND + parts.micros();
    if (parts.months() > 0 || micros <= 0) {
      throw new UnsupportedPart(
          "bucket width " + width + " must be a positive interval such as INTERVAL '1 minute'");
    }
    return micros;
  }

  private static String typeOf(Expression expression, ConstantEvaluator constants) {
    return ConstantEvaluator.isConstant(expression)
        ? constants.evaluate(expression, "typeof(", ")").map(Object::toString).orElse("")
        : "";
  }

  /**
   * The width {@code n} of {@code floor(extract(epoch from time)/n)*n} (a whole number of seconds,
   * the same twice, parentheses anywhere); empty for any other expression.
   */
  private static Optional<Long> epochSecondsWidth(Expression expression, String timeColumn) {
    if (!(SyntaxTrees.unparenthesized(expression) instanceof Multiplication times)
        || !(SyntaxTrees.unparenthesized(times.getLeftExpression()) instanceof Function floor)
        || floor.getName() == null
        || !floor.getName().equalsIgnoreCase("floor")
        || floor.getParameters() == null
        || floor.getParameters().size() != 1
        || !(SyntaxTrees.unparenthesized((Expression) floor.getParameters().get(0))
            instanceof Division divided)
        || !(SyntaxTrees.unparenthesized(divided.getLeftExpression())
            instanceof ExtractExpression extract)
        || !"epoch".equalsIgnoreCase(extract.getName())
        || !isColumn(extract.getExpression(), timeColumn)) {
      return Optional.empty();
    }
    Optional<Long> width = wholeSeconds(divided.getRightExpression());
    return width.isPresent() && width.equals(wholeSeconds(times.getRightExpression()))
        ? width
        : Optional.empty();
  }

  private static Optional<Long> wholeSeconds(Expression expression) {
    Expression literal = SyntaxTrees.unparenthesized(expression);
    if (literal instanceof LongValue whole && whole.getValue() > 0) {
      return Optional.of(whole.getValue());
    }
    if (literal instanceof DoubleValue number
        && number.getValue() >= 1
        && number.getValue() == Math.rint(number.getValue())
        && number.getValue() < Long.MAX_VALUE / SECOND) {
      return Optional.of((long) number.getValue());
    }
    return Optional.empty();
  }

  /**
   * The bucket {@code spelled} means, computed from a bucket's start {@code bucketStart} (a
   * TIMESTAMPTZ column): the start itself for the bucket functions, the local date and time of
   * {@code date_trunc(unit, time AT TIME ZONE 'zone')} (a TIMESTAMP), its seconds since 1970 for
   * Grafana's epoch spelling, so a routed answer has the values and types of the unrouted one.
   */
  public static Expression fromBucketStart(Expression spelled, Expression bucketStart) {
    Expression bare = SyntaxTrees.unparenthesized(spelled);
    if (bare instanceof Function function
        && function.getParameters() != null
        && function.getParameters().size() == 2
        && function.getParameters().get(1) instanceof TimezoneExpression local) {
      TimezoneExpression atZone = new TimezoneExpression();
      atZone.setLeftExpression(bucketStart);
      local.getTimezoneExpressions().forEach(atZone::addTimezoneExpression);
      return SyntaxTrees.call(
          function.getName(), (Expression) function.getParameters().get(0), atZone);
    }
    if (!(bare instanceof Multiplication times)
        || !(SyntaxTrees.unparenthesized(times.getLeftExpression()) instanceof Function floor)) {
      return bucketStart;
    }
    Division divided =
        (Division) SyntaxTrees.unparenthesized((Expression) floor.getParameters().get(0));
    ExtractExpression extract = new ExtractExpression();
    extract.setName("epoch");
    extract.setExpression(bucketStart);
    return SyntaxTrees.times(
        SyntaxTrees.call("floor", SyntaxTrees.dividedBy(extract, divided.getRightExpression())),
        times.getRightExpression());
  }

  private static boolean isColumn(Expression expression, String name) {
    return SyntaxNames.column(expression)
        .map(column -> SyntaxNames.unquote(column.getColumnName()).equalsIgnoreCase(name))
        .orElse(false);
  }
}

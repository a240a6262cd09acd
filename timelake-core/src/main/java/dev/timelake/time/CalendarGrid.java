package dev.timelake.time;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Buckets of {@code count} local days or months of a time zone, as DuckDB's {@code
 * time_bucket(width, time, zone)} makes them: days counted from Monday 2000-01-03 and months from
 * January 2000, in local time; a bucket starts at the first instant of its first local day (after a
 * gap when midnight is skipped), so a local day lasts 23 or 25 hours where the clocks change. Where
 * a zone repeats midnight, time_bucket starts the day at the later one ({@code laterMidnight}) and
 * local dates ({@code date_trunc(unit, time AT TIME ZONE zone)}) at the earlier one; the flag is
 * kept only for zones that ever repeat one. Days of a zone without transitions are a {@link
 * FixedGrid}.
 */
public record CalendarGrid(ZoneId zone, ChronoUnit unit, int count, boolean laterMidnight)
    implements BucketGrid {
  private static final LocalDate DAY_ORIGIN = LocalDate.of(2000, 1, 3);
  private static final long MONTH_ORIGIN = 2000L * 12;
  private static final Pattern SPELLED =
      Pattern.compile("(\\d+) *(day|days|month|months|year|years)");

  public CalendarGrid {
    requireNonNull(zone, "zone is null");
    if (unit != ChronoUnit.DAYS && unit != ChronoUnit.MONTHS) {
      throw new IllegalArgumentException("calendar buckets are days or months, not " + unit);
    }
    if (count <= 0) {
      throw new IllegalArgumentException("bucket width must be positive, got " + count);
    }
    // One spelling of UTC, which DuckDB knows as 'UTC' (not 'Z'); other zones keep their names.
    zone = zone.normalized().equals(ZoneOffset.UTC) ? ZoneOffset.UTC : zone;
    laterMidnight = laterMidnight || repeatedMidnights(zone).isEmpty();
  }

  /**
   * The grid of {@code count} {@code unit}s (days or months) in {@code zone}: a fixed grid for days
   * of a zone whose offset never changes, a calendar grid otherwise.
   */
  public static BucketGrid of(ZoneId zone, ChronoUnit unit, int count) {
    return of(zone, unit, count, true);
  }

  /**
   * {@link #of(ZoneId, ChronoUnit, int)}, where a repeated midnight starts a bucket at the later
   * one (time_bucket) or, {@code laterMidnight} false, at the earlier one (local dates).
   */
  public static BucketGrid of(ZoneId zone, ChronoUnit unit, int count, boolean laterMidnight) {
    ZoneId normalized = zone.normalized();
    if (unit == ChronoUnit.DAYS && normalized instanceof ZoneOffset offset) {
      long origin = DAY_ORIGIN.atStartOfDay(offset).toInstant().toEpochMilli() * 1000;
      return BucketGrid.of(count * 86_400_000_000L, origin);
    }
    return new CalendarGrid(zone, unit, count, laterMidnight);
  }

  /**
   * The grid stored as {@code spelled} ({@link #width()}: {@code 1 day}, {@code 3 months}, {@code 1
   * year}) in {@code zone}, if it is spelled so.
   */
  public static Optional<BucketGrid> parse(String spelled, ZoneId zone) {
    Matcher matcher = SPELLED.matcher(spelled.strip().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      return Optional.empty();
    }
    int count = Integer.parseInt(matcher.group(1));
    String unit = matcher.group(2);
    return Optional.of(
        unit.startsWith("day")
            ? of(zone, ChronoUnit.DAYS, count)
            : of(zone, ChronoUnit.MONTHS, unit.startsWith("year") ? count * 12 : count));
  }

  @Override
  public long floor(long micros) {
    if (micros == Long.MIN_VALUE || micros == Long.MAX_VALUE) {
      return micros;
    }
    LocalDate first = align(localDate(micros));
    long start = startOf(first);
    // At a repeated midnight a bucket starts at the later one, so the hour before it still
    // belongs to the bucket before.
    return start <= micros ? start : startOf(step(first, -1));
  }

  @Override
  public long next(long bucketStart) {
    LocalDate date = align(localDate(bucketStart));
    long next = startOf(step(date, 1));
    // A local day skipped entirely (Pacific/Apia, 2011-12-30) starts where the next one does.
    while (next <= bucketStart) {
      date = step(date, 1);
      next = startOf(step(date, 1));
    }
    return next;
  }

  @Override
  public long longestMicros() {
    long day = 86_400_000_000L + 3_600_000_000L;
    return unit == ChronoUnit.DAYS ? count * day : count * 31 * day;
  }

  @Override
  public long shortestMicros() {
    long day = 86_400_000_000L - 3 * 3_600_000_000L;
    return unit == ChronoUnit.DAYS ? count * day : count * 28 * day;
  }

  /**
   * True for the same zone when this grid's buckets are whole ones of {@code finer}'s: months of
   * months they divide, months or days of single days, days of days they divide.
   */
  @Override
  public boolean isMultipleOf(BucketGrid finer) {
    if (!(finer instanceof CalendarGrid calendar)
        || !calendar.zone.equals(zone)
        || calendar.laterMidnight != laterMidnight) {
      return false;
    }
    if (calendar.unit == ChronoUnit.DAYS && calendar.count == 1) {
      return true;
    }
    return calendar.unit == unit && count % calendar.count == 0;
  }

  /**
   * The width as stored in a rollup's properties: {@code 1 day}, {@code 3 months}, {@code 1 year}.
   */
  public String width() {
    if (unit == ChronoUnit.MONTHS && count % 12 == 0) {
      return plural(count / 12, "year");
    }
    return plural(count, unit == ChronoUnit.DAYS ? "day" : "month");
  }

  /** The zone's name as DuckDB knows it: {@code UTC}, {@code Europe/Berlin}. */
  public String zoneName() {
    return zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
  }

  /** The width as a DuckDB interval's text, e.g. {@code 3 months}. */
  public String interval() {
    return plural(count, unit == ChronoUnit.DAYS ? "day" : "month");
  }

  /**
   * The transitions of {@code zone} that repeat a local midnight (America/Havana falls back from
   * 01:00 to 00:00): there a bucket of local dates ({@code date_trunc}) starts at the earlier
   * midnight and {@code time_bucket}'s at the later one, so the two spellings differ. Transitions
   * of the zone's history and of its rules for one year.
   */
  public static List<ZoneOffsetTransition> repeatedMidnights(ZoneId zone) {
    List<ZoneOffsetTransition> transitions = new ArrayList<>(zone.getRules().getTransitions());
    zone.getRules()
        .getTransitionRules()
        .forEach(rule -> transitions.add(rule.createTransition(2030)));
    List<ZoneOffsetTransition> repeated = new ArrayList<>();
    for (ZoneOffsetTransition transition : transitions) {
      if (repeatsMidnight(transition)) {
        repeated.add(transition);
      }
    }
    return repeated;
  }

  private static boolean repeatsMidnight(ZoneOffsetTransition transition) {
    if (!transition.isOverlap()) {
      return false;
    }
    LocalDateTime after = transition.getDateTimeAfter();
    LocalDateTime midnight =
        after.toLocalTime().equals(LocalTime.MIDNIGHT)
            ? after
            : after.toLocalDate().plusDays(1).atStartOfDay();
    return midnight.isBefore(transition.getDateTimeBefore());
  }

  /** True when the zone repeats a local midnight between the two instants (µs). */
  public static boolean repeatsMidnightBetween(ZoneId zone, long fromMicros, long toMicros) {
    Instant at = Instant.EPOCH.plus(Math.floorDiv(fromMicros, 1_000_000L), ChronoUnit.SECONDS);
    Instant to = Instant.EPOCH.plus(Math.floorDiv(toMicros, 1_000_000L) + 1, ChronoUnit.SECONDS);
    for (ZoneOffsetTransition t = zone.getRules().nextTransition(at.minusSeconds(1));
        t != null && t.getInstant().isBefore(to);
        t = zone.getRules().nextTransition(t.getInstant())) {
      if (repeatsMidnight(t)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when the zone once moved its clocks forward by a day or more (Pacific/Apia skipped
   * 2011-12-30), where DuckDB counts buckets of several days differently from the calendar.
   */
  public static boolean skipsADay(ZoneId zone) {
    return zone.getRules().getTransitions().stream()
        .anyMatch(t -> t.isGap() && t.getDuration().toHours() >= 24);
  }

  /** E.g. {@code 1 month in Europe/Berlin}. */
  @Override
  public String toString() {
    return width() + " in " + zoneName();
  }

  private LocalDate localDate(long micros) {
    return LocalDate.ofInstant(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), zone);
  }

  private LocalDate align(LocalDate date) {
    if (unit == ChronoUnit.DAYS) {
      long days = ChronoUnit.DAYS.between(DAY_ORIGIN, date);
      return DAY_ORIGIN.plusDays(Math.floorDiv(days, count) * count);
    }
    long months = date.getYear() * 12L + date.getMonthValue() - 1 - MONTH_ORIGIN;
    long aligned = MONTH_ORIGIN + Math.floorDiv(months, count) * count;
    return LocalDate.of((int) Math.floorDiv(aligned, 12), (int) Math.floorMod(aligned, 12) + 1, 1);
  }

  private LocalDate step(LocalDate alignedDate, int buckets) {
    return alignedDate.plus((long) buckets * count, unit);
  }

  private long startOf(LocalDate date) {
    java.time.ZonedDateTime midnight = date.atStartOfDay(zone);
    Instant start =
        (laterMidnight
                ? midnight.withLaterOffsetAtOverlap()
                : midnight.withEarlierOffsetAtOverlap())
            .toInstant();
    return Math.addExact(
        Math.multiplyExact(start.getEpochSecond(), 1_000_000L), start.getNano() / 1000);
  }

  private static String plural(int count, String unit) {
    return count + " " + unit + (count == 1 ? "" : "s");
  }
}

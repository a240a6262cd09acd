package dev.timelake.table;

import dev.timelake.Chunk;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Time-partition math, identical to Iceberg's hour, day and month transforms of a µs timestamp:
 * whole hours or days since the epoch (floor), or {@code (year - 1970) * 12 + (month - 1)}, in UTC.
 */
public final class TimePartitions {
  private static final long MICROS_PER_HOUR = 3_600_000_000L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private TimePartitions() {}

  /** The partition ordinal of a µs timestamp. */
  public static int ordinal(Chunk chunk, long micros) {
    return switch (chunk) {
      case HOUR -> Math.toIntExact(Math.floorDiv(micros, MICROS_PER_HOUR));
      case DAY -> Math.toIntExact(Math.floorDiv(micros, MICROS_PER_DAY));
      case MONTH -> {
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(micros, MICROS_PER_DAY));
        yield (date.getYear() - 1970) * 12 + date.getMonthValue() - 1;
      }
    };
  }

  /**
   * A DuckDB expression computing the partition ordinal of {@code timeSql} (a TIMESTAMPTZ), using
   * integer arithmetic on epoch microseconds so no time-zone library is involved.
   */
  public static String ordinalSql(Chunk chunk, String timeSql) {
    String micros = "epoch_us(" + timeSql + ")";
    return switch (chunk) {
      case HOUR -> "CAST(" + floorDivSql(micros, MICROS_PER_HOUR) + " AS INTEGER)";
      case DAY -> "CAST(" + floorDivSql(micros, MICROS_PER_DAY) + " AS INTEGER)";
      case MONTH ->
          "CAST((year(make_timestamp("
              + micros
              + ")) - 1970) * 12 + month(make_timestamp("
              + micros
              + ")) - 1 AS INTEGER)";
    };
  }

  /** Exact integer floor division in DuckDB SQL ({@code //} truncates toward zero). */
  public static String floorDivSql(String numerator, long divisor) {
    return "((" + numerator + " - " + floorModSql(numerator, divisor) + ") // " + divisor + ")";
  }

  /** Exact integer floor modulo in DuckDB SQL: always in [0, divisor). */
  public static String floorModSql(String numerator, long divisor) {
    return "(((" + numerator + " % " + divisor + ") + " + divisor + ") % " + divisor + ")";
  }

  /** First µs of a partition. */
  public static long startMicros(Chunk chunk, int ordinal) {
    return switch (chunk) {
      case HOUR -> ordinal * MICROS_PER_HOUR;
      case DAY -> ordinal * MICROS_PER_DAY;
      case MONTH -> {
        YearMonth month =
            YearMonth.of(1970 + Math.floorDiv(ordinal, 12), Math.floorMod(ordinal, 12) + 1);
        yield month.atDay(1).toEpochDay() * MICROS_PER_DAY;
      }
    };
  }

  /** First µs after a partition. */
  public static long endMicros(Chunk chunk, int ordinal) {
    return startMicros(chunk, ordinal + 1);
  }

  /** A readable label: {@code 2026-01-01T05} (hour), {@code 2026-01-01} (day), {@code 2026-01}. */
  public static String label(Chunk chunk, int ordinal) {
    Instant start = Instant.EPOCH.plus(startMicros(chunk, ordinal), ChronoUnit.MICROS);
    String iso = start.atOffset(ZoneOffset.UTC).toLocalDateTime().toString();
    return switch (chunk) {
      case HOUR -> iso.substring(0, 13);
      case DAY -> iso.substring(0, 10);
      case MONTH -> iso.substring(0, 7);
    };
  }
}

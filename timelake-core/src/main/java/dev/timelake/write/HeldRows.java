package dev.timelake.write;

import dev.timelake.Column;
import dev.timelake.table.TableContract;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;

/**
 * An append's rows of Java values as a tier's batch, built without the engine when each value is of
 * the Java type its column holds (a {@code Double} for DOUBLE, an {@code Instant} for TIMESTAMPTZ,
 * a {@code LocalDate} for DATE…), so that staging it would keep it exactly as it is. Anything else
 * — a string to be parsed, a number to be narrowed, NULL where staging may refuse it, an instant
 * finer than a microsecond or outside years 1 to 9999 — gives nothing, and the rows are staged and
 * checked in the engine as any append's are (its verdicts and errors); so this never accepts what
 * staging refuses, and never holds another value than staging would.
 */
final class HeldRows {
  private static final LocalDate FIRST_DAY = LocalDate.of(1, 1, 1);
  private static final LocalDate LAST_DAY = LocalDate.of(9999, 12, 31);

  private HeldRows() {}

  /** {@code rows} as a batch for {@code table}, with the rows less copies of a key; or empty. */
  static Optional<StagedBatch> of(
      TableContract table, AppendSource.Rows rows, BufferAllocator allocator) {
    Optional<List<Column>> columns = HeldColumns.of(table, rows.columns());
    if (columns.isEmpty() || rows.rows().isEmpty() || rows.rows().size() > HeldColumns.MAX_ROWS) {
      return Optional.empty();
    }
    for (Column column : table.columns()) {
      boolean given = columns.get().contains(column);
      boolean ingest = table.ingestTimeColumn().map(column.name()::equals).orElse(false);
      if (!given && !ingest && !certainNull(table, column)) {
        return Optional.empty(); // staging decides what a missing column means
      }
    }
    List<List<Object>> converted = new ArrayList<>(rows.rows().size());
    for (List<Object> row : rows.rows()) {
      if (row.size() != columns.get().size()) {
        return Optional.empty();
      }
      List<Object> values = new ArrayList<>(row.size());
      for (int c = 0; c < row.size(); c++) {
        Column column = columns.get().get(c);
        Object value = row.get(c);
        if (value == null) {
          if (!certainNull(table, column)) {
            return Optional.empty();
          }
          values.add(null);
          continue;
        }
        Optional<Object> held = convert(value, column);
        if (held.isEmpty()) {
          return Optional.empty();
        }
        values.add(held.get());
      }
      converted.add(values);
    }
    return Optional.of(
        new StagedBatch(
            HeldColumns.batch(table, columns.get(), converted, allocator),
            rowsLessCopies(table, columns.get(), converted)));
  }

  /** A NULL staging keeps as it is: in a nullable column that is neither key nor time. */
  private static boolean certainNull(TableContract table, Column column) {
    return column.isNullable()
        && !table.timeColumn().map(column.name()::equalsIgnoreCase).orElse(false)
        && table.seriesKey().stream().noneMatch(column.name()::equalsIgnoreCase);
  }

  /** {@code value} as {@link ArrowColumns#set} takes it for {@code column}, when it is exact. */
  private static Optional<Object> convert(Object value, Column column) {
    return Optional.ofNullable(
        switch (column.type().kind()) {
          case BOOLEAN -> value instanceof Boolean ? value : null;
          case INTEGER ->
              value instanceof Integer || value instanceof Short || value instanceof Byte
                  ? ((Number) value).intValue()
                  : null;
          case BIGINT ->
              value instanceof Long
                      || value instanceof Integer
                      || value instanceof Short
                      || value instanceof Byte
                  ? ((Number) value).longValue()
                  : null;
          case FLOAT -> value instanceof Float ? value : null;
          case DOUBLE ->
              value instanceof Double
                      || value instanceof Float
                      || value instanceof Integer
                      || value instanceof Short
                      || value instanceof Byte
                  ? ((Number) value).doubleValue()
                  : null;
          case VARCHAR -> value instanceof String text && plain(text) ? text : null;
          case DATE -> value instanceof LocalDate day && inRange(day) ? day : null;
          case TIMESTAMPTZ -> instantMicros(value);
          case TIMESTAMP ->
              value instanceof LocalDateTime local ? micros(local.toInstant(ZoneOffset.UTC)) : null;
          default -> null;
        });
  }

  private static Long instantMicros(Object value) {
    if (value instanceof Instant instant) {
      return micros(instant);
    }
    if (value instanceof OffsetDateTime offset) {
      return micros(offset.toInstant());
    }
    if (value instanceof ZonedDateTime zoned) {
      return micros(zoned.toInstant());
    }
    return null;
  }

  /** Microseconds since 1970 of an instant in years 1 to 9999 with no finer part; else null. */
  private static Long micros(Instant instant) {
    if (instant.getNano() % 1_000 != 0 || !inRange(LocalDate.ofInstant(instant, ZoneOffset.UTC))) {
      return null;
    }
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  private static boolean inRange(LocalDate day) {
    return !day.isBefore(FIRST_DAY) && !day.isAfter(LAST_DAY);
  }

  /** Text that is valid UTF-8 once encoded, without NUL: what the engine stores unchanged. */
  private static boolean plain(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0) {
        return false;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The rows less copies of a key (series key and time: strings, integers, instants, which Java
   * tells equal as the engine does) among them, as a commit counts them; every row for a table that
   * keeps copies. Every key column is among {@code columns}: a missing one is NULL, which {@link
   * #certainNull} leaves to staging.
   */
  private static long rowsLessCopies(
      TableContract table, List<Column> columns, List<List<Object>> rows) {
    if (!table.deduplicates()) {
      return rows.size();
    }
    List<String> key = new ArrayList<>(table.seriesKey());
    table.timeColumn().ifPresent(key::add);
    List<Integer> positions = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      String name = columns.get(c).name();
      if (key.stream().anyMatch(name::equalsIgnoreCase)) {
        positions.add(c);
      }
    }
    Set<List<Object>> keys = new HashSet<>();
    for (List<Object> row : rows) {
      List<Object> values = new ArrayList<>(positions.size());
      positions.forEach(p -> values.add(row.get(p)));
      keys.add(values);
    }
    return keys.size();
  }
}

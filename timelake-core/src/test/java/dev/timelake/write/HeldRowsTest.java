package dev.timelake.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.table.TableContract;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which rows of Java values a tier takes as they are: values of their columns' own Java types;
 * anything the engine must parse, narrow or judge (text, a long into INTEGER, a double into FLOAT,
 * NULL in a key, the time or a required column, a nanosecond, year 10000, a lone surrogate, a NUL)
 * is left to staging.
 */
class HeldRowsTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private final BufferAllocator allocator = new RootAllocator();

  @TempDir Path warehouse;
  private TableContract table;

  @BeforeEach
  void create() {
    table =
        dev.timelake.TestContracts.created(
            warehouse,
            "t.r",
            "(tag VARCHAR, time TIMESTAMPTZ NOT NULL, i INTEGER, f FLOAT, d DOUBLE, day DATE,"
                + " local TIMESTAMP, s VARCHAR, need BIGINT NOT NULL)"
                + " WITH (time_column = 'time', series_key = 'tag')");
  }

  @AfterEach
  void close() {
    allocator.close();
  }

  @Test
  void valuesOfTheirColumnsJavaTypesAreHeldAsTheyAre() {
    Optional<StagedBatch> batch =
        held(
            row(
                "a",
                T,
                1,
                1.5f,
                2.5,
                LocalDate.of(2026, 1, 1),
                LocalDateTime.of(2026, 1, 1, 0, 0),
                "x",
                3L),
            row("a", T, (short) 2, null, 7, null, null, "💧", 4),
            row("b", T.plusMillis(1), null, null, Double.NaN, null, null, null, 5L));
    assertThat(batch).isPresent();
    try (var root = batch.get().batch()) {
      assertThat(root.getRowCount()).isEqualTo(3);
      assertThat(batch.get().rowsLessCopies()).as("one copy of (a, T)").isEqualTo(2);
      assertThat(root.getVector("d").getObject(1)).isEqualTo(7.0);
      assertThat(root.getVector("time").getObject(2)).isEqualTo(1_767_225_600_001_000L);
    }
  }

  @Test
  void valuesTheEngineMustJudgeAreLeftToStaging() {
    Object[] plain = row("a", T, 1, 1.5f, 2.5, null, null, "x", 3L);
    for (int column = 0; column < plain.length; column++) {
      for (Object odd : oddValues(column)) {
        Object[] row = plain.clone();
        row[column] = odd;
        Optional<StagedBatch> batch = held(row);
        batch.ifPresent(b -> b.batch().close());
        assertThat(batch).as("column %d: %s", column, odd).isEmpty();
      }
    }
  }

  private static List<Object> oddValues(int column) {
    return switch (column) {
      case 0 -> Arrays.asList(null, 7, "a\0b", "\uD800");
      case 1 ->
          Arrays.asList(
              null,
              "2026-01-01 00:00:00+00",
              T.plusNanos(1),
              Instant.parse("+10000-01-01T00:00:00Z"),
              LocalDateTime.of(2026, 1, 1, 0, 0));
      case 2 -> Arrays.asList(1L, "1", 1.0);
      case 3 -> Arrays.asList(1.5, 1, "1.5");
      case 4 -> Arrays.asList(1L, new java.math.BigDecimal("1.5"), "2.5");
      case 5 -> Arrays.asList("2026-01-01", LocalDate.of(10_000, 1, 1), T);
      case 6 -> Arrays.asList(T, "2026-01-01 00:00:00", LocalDateTime.of(2026, 1, 1, 0, 0, 0, 1));
      case 7 -> Arrays.asList(1, "\uDC00x");
      default -> Arrays.asList(null, "3", 3.0);
    };
  }

  private Optional<StagedBatch> held(Object[]... rows) {
    List<List<Object>> values = new ArrayList<>();
    for (Object[] row : rows) {
      values.add(Arrays.asList(row));
    }
    return HeldRows.of(
        table,
        new AppendSource.Rows(
            List.of("tag", "time", "i", "f", "d", "day", "local", "s", "need"), values),
        allocator);
  }

  private static Object[] row(Object... values) {
    return values;
  }
}

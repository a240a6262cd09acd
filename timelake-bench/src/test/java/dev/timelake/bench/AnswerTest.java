package dev.timelake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerTest {
  private static final OffsetDateTime NOON =
      OffsetDateTime.of(2026, 1, 1, 12, 0, 0, 0, ZoneOffset.UTC);

  @Test
  void normalizesTypesAndSortsRows() {
    Answer answer =
        new Answer(
            List.of(
                row("b", 2, new BigDecimal("1.5"), NOON),
                row("a", BigInteger.valueOf(7), 0.25f, NOON)));

    assertThat(answer.rows())
        .containsExactly(
            row("a", 7L, 0.25, NOON.toInstant()),
            row("b", 2L, 1.5, Instant.parse("2026-01-01T12:00:00Z")));
    assertThat(answer.checksum()).isEqualTo(7 + 0.25 + 2 + 1.5);
  }

  @Test
  void doublesAgreeWithinTheRelativeTolerance() {
    Answer expected = new Answer(List.of(row("a", 1000.0)));

    assertThat(new Answer(List.of(row("a", 1000.0 * (1 + 1e-12)))).difference(expected)).isEmpty();
    assertThat(new Answer(List.of(row("a", 1000.0 * (1 + 1e-6)))).difference(expected))
        .contains("1 of 1 rows differ");
  }

  @Test
  void reportsAnotherRowCount() {
    Answer expected = new Answer(List.of(row("a", 1L)));
    Answer more = new Answer(List.of(row("a", 1L), row("a", 1L)));

    assertThat(more.difference(expected)).contains("2 rows vs 1");
    assertThat(expected.difference(expected)).isEmpty();
  }

  private static List<Object> row(Object... values) {
    return List.of(values);
  }
}

package dev.timelake.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TestRandom;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationsTest {
  @ParameterizedTest
  @CsvSource({
    "90d, 7776000",
    "36h, 129600",
    "45s, 45",
    "30m, 1800",
    "2w, 1209600",
    "1y, 31536000",
    "1 day, 86400",
    "3 hours, 10800",
    "5 MINUTES, 300",
    "'  12 hrs ', 43200",
    "0s, 0"
  })
  void parsesShortAndSpelledOutDurations(String text, long seconds) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofSeconds(seconds));
  }

  @ParameterizedTest
  @CsvSource({
    "7776000, 90d",
    "129600, 36h",
    "45, 45s",
    "5400, 90m",
    "1209600, 2w",
    "31536000, 1y",
    "86401, 86401s",
    "0, 0s"
  })
  void formatsInTheLargestExactUnit(long seconds, String text) {
    assertThat(Durations.format(Duration.ofSeconds(seconds))).isEqualTo(text);
  }

  @Test
  void formatThenParseIsIdentity() {
    TestRandom random = TestRandom.create();
    long[] units = {1, 60, 3600, 86_400, 7 * 86_400, 365 * 86_400L};
    for (int i = 0; i < 1000; i++) {
      Duration duration =
          Duration.ofSeconds(random.between(0, 100_000) * units[random.nextInt(units.length)]);
      assertThat(Durations.parse(Durations.format(duration))).as("%s", random).isEqualTo(duration);
    }
  }

  @Test
  void rejectsTextThatIsNotADuration() {
    assertThatThrownBy(() -> Durations.parse("ninety days"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected a duration such as 90d, 12h, 30m, 45s, 2w, 1y");
    assertThatThrownBy(() -> Durations.parse("-5d"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected a duration such as 90d, 12h, 30m, 45s, 2w, 1y");
    assertThatThrownBy(() -> Durations.parse("5 fortnights"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown unit 'fortnights', expected s, m, h, d, w or y");
  }

  @Test
  void rejectsDurationsTooLongToRepresent() {
    assertThatThrownBy(() -> Durations.parse("9999999999999999y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected a duration such as 90d, 12h, 30m, 45s, 2w, 1y");
    assertThatThrownBy(() -> Durations.parse("99999999999999999999s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected a duration such as 90d, 12h, 30m, 45s, 2w, 1y");
  }
}

package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ValuesTest {
  @Test
  void printsInstantsInUtcOrAtTheOffsetTheSessionsZoneGaveKeepingFractions() {
    OffsetDateTime time = OffsetDateTime.of(2026, 1, 1, 10, 0, 0, 0, ZoneOffset.UTC);

    assertThat(Values.text(time)).isEqualTo("2026-01-01T10:00:00Z");
    assertThat(Values.text(time.withNano(123_456_000))).isEqualTo("2026-01-01T10:00:00.123456Z");
    // A session in Europe/Berlin: the statement runner moved the instant to the zone's offset.
    OffsetDateTime berlin = time.withOffsetSameInstant(ZoneOffset.ofHours(1));
    assertThat(Values.text(berlin)).isEqualTo("2026-01-01T11:00:00+01:00");
    assertThat(Values.text(LocalDateTime.of(2026, 1, 1, 10, 0))).isEqualTo("2026-01-01T10:00:00");
    assertThat(Values.text(LocalDate.of(2026, 1, 1))).isEqualTo("2026-01-01");
  }

  @Test
  void printsDecimalsAndBytesPlainly() {
    assertThat(Values.text(new BigDecimal("1E+3"))).isEqualTo("1000");
    assertThat(Values.text(new byte[] {0x41, (byte) 0xff})).isEqualTo("\\x41\\xFF");
  }

  @Test
  void quotesCsvFieldsOnlyWhenNeeded() {
    assertThat(CsvPrinter.field("plain")).isEqualTo("plain");
    assertThat(CsvPrinter.field("a,b")).isEqualTo("\"a,b\"");
    assertThat(CsvPrinter.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(CsvPrinter.field("a\r\nb")).isEqualTo("\"a\r\nb\"");
  }

  @Test
  void writesJsonValues() {
    StringBuilder json = new StringBuilder();
    Values.appendJson(json, "a\"\\\n\u0001é");
    json.append(' ');
    Values.appendJson(json, 2.5);
    json.append(' ');
    Values.appendJson(json, Double.NaN);
    json.append(' ');
    Values.appendJson(json, null);
    json.append(' ');
    Values.appendJson(json, new BigDecimal("12.30"));
    json.append(' ');
    Values.appendJson(json, false);

    assertThat(json).hasToString("\"a\\\"\\\\\\n\\u0001é\" 2.5 \"NaN\" null 12.30 false");
  }
}

package dev.timelake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryResultValuesTest {
  @TempDir Path warehouse;

  private static final String INSTANTS =
      "SELECT * FROM (VALUES (1, TIMESTAMPTZ '2026-03-29 01:30:00.123456+00'),"
          + " (2, TIMESTAMPTZ '1969-12-31 23:59:59.999999+00'), (3, NULL),"
          + " (4, TIMESTAMPTZ '0001-01-01 00:00:00+00'), (5, TIMESTAMPTZ '9999-12-31 23:59:59+00'))"
          + " AS t(i, ts) ORDER BY i";

  @Test
  void timestampsWithTimeZoneAreInstantsInUtcWithTheirMicroseconds() {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession();
        QueryResult result = session.sql(INSTANTS)) {
      List<Object> values = result.rows().stream().map(row -> row.get(1)).toList();
      assertThat(values)
          .isEqualTo(
              Arrays.asList(
                  OffsetDateTime.parse("2026-03-29T01:30:00.123456Z"),
                  OffsetDateTime.parse("1969-12-31T23:59:59.999999Z"),
                  null,
                  OffsetDateTime.parse("0001-01-01T00:00:00Z"),
                  OffsetDateTime.parse("9999-12-31T23:59:59Z")));
    }
  }

  @Test
  void timestampsWithTimeZoneAreInUtcWhateverTheJvmsDefaultZone() {
    TimeZone before = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession();
        QueryResult result = session.sql(INSTANTS)) {
      assertThat(result.next()).isTrue();
      OffsetDateTime first = (OffsetDateTime) result.value(1);
      assertThat(first.getOffset()).isEqualTo(ZoneOffset.UTC);
      assertThat(first.toInstant())
          .isEqualTo(java.time.Instant.parse("2026-03-29T01:30:00.123456Z"));
    } finally {
      TimeZone.setDefault(before);
    }
  }
}

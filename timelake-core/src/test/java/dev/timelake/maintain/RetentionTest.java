package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.AppendResult;
import dev.timelake.MaintenanceReport;
import dev.timelake.Table;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Retention drops whole partitions that lie entirely before now minus {@code retention}; a
 * partition straddling the cut-off is kept whole, and without {@code retention} nothing is dropped.
 */
class RetentionTest {
  private static final String NAME = "iot.readings";
  private static final LocalDate FIRST = LocalDate.parse("2026-01-01");
  private static final Duration RETENTION = Duration.ofDays(2);

  @TempDir Path warehouse;
  private MaintenanceFixture fixture;
  private final LatestWrites oracle = new LatestWrites();

  @BeforeEach
  void openLake() {
    fixture = new MaintenanceFixture(warehouse);
  }

  @AfterEach
  void close() throws Exception {
    fixture.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-01-06T12:00:00Z",
        "2026-01-06T00:00:00Z",
        "2026-01-05T23:59:59.999999Z",
        "2026-01-06T00:00:00.000001Z",
        "2026-01-03T00:00:00Z"
      })
  void dropsOnlyPartitionsEntirelyBeforeTheCutoff(String at) {
    Instant now = Instant.parse(at);
    Table table = fixture.create(readings(NAME).option("retention", "2d"));
    appendSixDays(table, now);
    Predicate<LatestWrites.Key> dropped = key -> dayEnd(key.micros()).compareTo(cutoff(now)) <= 0;
    long droppedDays = daysBefore(cutoff(now));

    MaintenanceReport report = table.newMaintenance().clock(Clock.fixed(now, ZoneOffset.UTC)).run();

    oracle.removeIf(dropped);
    assertThat(report.partitionsDropped()).isEqualTo(droppedDays);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
    if (droppedDays > 0) {
      assertThat(report.explanation())
          .contains(
              "retention: drop "
                  + droppedDays
                  + " partitions before "
                  + FIRST.plusDays(droppedDays));
    }
  }

  @Test
  void keepsAPartitionStraddlingTheCutoffWhole() {
    Instant now = Instant.parse("2026-01-06T12:00:00Z");
    Table table = fixture.create(readings(NAME).option("retention", "2d"));
    appendSixDays(table, now);

    table.newMaintenance().clock(Clock.fixed(now, ZoneOffset.UTC)).run();

    assertThat(
            fixture.query(
                "SELECT min(time) < TIMESTAMPTZ '2026-01-04 12:00:00+00', count(*) FROM "
                    + NAME
                    + " WHERE time < TIMESTAMPTZ '2026-01-05 00:00:00+00'"))
        .containsExactly("[true, 3]");
    assertThat(fixture.dataFiles(NAME).stream().map(f -> f.location()).toList())
        .noneMatch(location -> location.contains("=2026-01-03/"))
        .anyMatch(location -> location.contains("=2026-01-04/"));
  }

  @Test
  void dropsNothingWithoutRetention() {
    Instant now = Instant.parse("2027-01-01T00:00:00Z");
    Table table = fixture.create(readings(NAME));
    appendSixDays(table, now);

    MaintenanceReport report = table.newMaintenance().clock(Clock.fixed(now, ZoneOffset.UTC)).run();

    assertThat(report.partitionsDropped()).isZero();
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void appendsDropExpiredPartitionsInline() {
    Instant now = Instant.parse("2026-01-06T12:00:00Z");
    Table table = fixture.create(readings(NAME).option("retention", "2d"));
    appendSixDays(table, now.minus(Duration.ofDays(10)));

    AppendResult result = append(table, now, List.of(new Row("b", now, 1.0)), oracle).commit();

    oracle.removeIf(key -> dayEnd(key.micros()).compareTo(cutoff(now)) <= 0);
    assertThat(result.maintenance().orElseThrow().partitionsDropped()).isEqualTo(3);
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  /**
   * One append without maintenance: rows at 00:00, 12:00 and 23:59:59.999999 of six days from
   * 2026-01-01, so each partition's rows reach both of its ends.
   */
  private void appendSixDays(Table table, Instant ingest) {
    List<Row> rows = new ArrayList<>();
    for (int day = 0; day < 6; day++) {
      Instant start = FIRST.plusDays(day).atStartOfDay().toInstant(ZoneOffset.UTC);
      rows.add(new Row("a", start, (double) day));
      rows.add(new Row("a", start.plus(Duration.ofHours(12)), day + 0.5));
      rows.add(new Row("a", start.plus(Duration.ofDays(1)).minusNanos(1000), day + 0.9));
    }
    append(table, ingest, rows, oracle).withoutMaintenance().commit();
  }

  private static Instant cutoff(Instant now) {
    return now.minus(RETENTION);
  }

  /** The first instant after the UTC day holding {@code micros}. */
  private static Instant dayEnd(long micros) {
    LocalDate day = Instant.EPOCH.plusNanos(micros * 1000).atOffset(ZoneOffset.UTC).toLocalDate();
    return day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
  }

  /** How many of the six days end at or before {@code cutoff}. */
  private static long daysBefore(Instant cutoff) {
    long days = 0;
    for (int day = 0; day < 6; day++) {
      if (!FIRST.plusDays(day + 1).atStartOfDay().toInstant(ZoneOffset.UTC).isAfter(cutoff)) {
        days++;
      }
    }
    return days;
  }
}

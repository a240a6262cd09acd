package dev.timelake.iiot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generates 12 hours of the tiny plant once (the full two days take longer than a unit test should)
 * and checks the data's shape through SQL. Time differences use {@code epoch_us}.
 */
class IiotGeneratorTest {
  private static final int HOURS = 12;
  private static final String FINGERPRINT =
      "SELECT count(*), sum(CAST(round(value * 1000) AS BIGINT)), sum(epoch_us(time)),"
          + " sum(quality), sum(epoch_us(_ingest_ts)) FROM iiot.readings";

  @TempDir static Path warehouse;
  private static Lake lake;
  private static GenerationResult result;
  private static IiotGenerator generator;

  @BeforeAll
  static void generate() {
    generator = IiotGenerator.builder().scale(Scale.TINY).seed(42).hours(HOURS).build();
    lake = Lake.open(warehouse.resolve("lake"));
    result = generator.generate(lake);
  }

  @AfterAll
  static void close() {
    lake.close();
  }

  @Test
  void createsTheTagsOfThePlant() {
    List<List<Object>> tags =
        rows("SELECT tag, line, machine, unit, low < high FROM iiot.tags ORDER BY tag");
    assertThat(tags).hasSize(Scale.TINY.tags()).hasSize(20);
    assertThat(tags.get(0)).containsExactly("L01-M01-T1", "L0001", "L01-M01", "degC", true);
    assertThat(tags.get(19)).containsExactly("L02-M02-T5", "L0002", "L02-M02", "kW", true);
  }

  @Test
  void appendsOneBatchPerHourWithoutCopiesInsideAnAppend() {
    assertThat(result.hoursAppended()).isEqualTo(HOURS);
    assertThat(result.hoursSkipped()).isZero();
    assertThat(result.copiesDropped()).isZero();
    assertThat(rawLong("SELECT count(*) FROM iiot.readings")).isEqualTo(result.readings());
  }

  @Test
  void producesAboutOneReadingPerTagEverySixSecondsLessDowntime() {
    long expected = (long) Scale.TINY.tags() * HOURS * 3600 / 6;
    long readings = longValue("SELECT count(*) FROM iiot.readings");
    assertThat(readings).isBetween(expected * 80 / 100, expected * 110 / 100);
    assertThat(longValue("SELECT count(DISTINCT tag) FROM iiot.readings")).isEqualTo(20);
  }

  @Test
  void everyReadingArrivesAtTheEndOfAnHourAfterItWasTaken() {
    List<Object> arrival =
        rawRow(
            "SELECT count(*) FILTER (WHERE epoch_us(_ingest_ts) % 3600000000 <> 0),"
                + " count(*) FILTER (WHERE _ingest_ts < time),"
                + " count(*) FILTER (WHERE epoch_us(_ingest_ts) - epoch_us(time) > 3600000000)"
                + " FROM iiot.readings");
    assertThat(arrival.get(0)).isEqualTo(0L);
    assertThat(arrival.get(1)).isEqualTo(0L);
    assertThat((Long) arrival.get(2)).as("readings more than an hour late").isPositive();
  }

  @Test
  void resendsSomeReadingsInLaterAppendsHalfOfThemCorrected() {
    List<Object> copies =
        rawRow(
            "SELECT count(*), count(*) FILTER (WHERE distinct_values > 1), max(copies),"
                + " count(*) FILTER (WHERE appends < copies)"
                + " FROM (SELECT tag, time, count(*) AS copies, count(DISTINCT value) AS distinct_values,"
                + " count(DISTINCT _ingest_ts) AS appends"
                + " FROM iiot.readings GROUP BY tag, time HAVING count(*) > 1)");
    long keysWithCopies = (Long) copies.get(0);
    long corrected = (Long) copies.get(1);
    assertThat(keysWithCopies).isPositive();
    assertThat(corrected).isBetween(keysWithCopies / 4, keysWithCopies * 3 / 4);
    assertThat(copies.get(2)).isEqualTo(2L);
    assertThat(copies.get(3)).as("copies that arrived in the same append").isEqualTo(0L);
    long raw = rawLong("SELECT count(*) FROM iiot.readings");
    assertThat(longValue("SELECT count(*) FROM iiot.readings")).isEqualTo(raw - keysWithCopies);
  }

  @Test
  void leavesGapsWhereMachinesAreDown() {
    long gaps =
        longValue(
            "SELECT count(*) FROM (SELECT epoch_us(time) - lag(epoch_us(time))"
                + " OVER (PARTITION BY tag ORDER BY time) AS gap FROM iiot.readings)"
                + " WHERE gap > 300000000");
    assertThat(gaps).isPositive();
  }

  @Test
  void spikesAboveTheHighLimitNowAndThen() {
    List<Object> limits =
        row(
            "SELECT count(*) FILTER (WHERE r.value > t.high), count(*)"
                + " FROM iiot.readings r JOIN iiot.tags t USING (tag)");
    long above = (Long) limits.get(0);
    assertThat(above).isPositive().isLessThan((Long) limits.get(1) / 100);
  }

  @Test
  void sameSeedGivesTheSameDataAndAnotherSeedOther(@TempDir Path folder) {
    List<Object> first = fingerprint(folder.resolve("first"), 42);
    List<Object> again = fingerprint(folder.resolve("again"), 42);
    List<Object> other = fingerprint(folder.resolve("other"), 7);
    assertThat(again).isEqualTo(first);
    assertThat(other).isNotEqualTo(first);
  }

  @Test
  void runningAgainSkipsTheHoursAlreadyCommitted() {
    GenerationResult again = generator.generate(lake);
    assertThat(again.hoursSkipped()).isEqualTo(HOURS);
    assertThat(again.readings()).isZero();
    assertThat(longValue("SELECT count(*) FROM iiot.tags")).isEqualTo(20);
    assertThat(rawLong("SELECT count(*) FROM iiot.readings")).isEqualTo(result.readings());
  }

  @Test
  void writesTheSameReadingsAsPlainParquet(@TempDir Path folder) {
    long written = generator.writePlainParquet(folder);
    assertThat(written).isEqualTo(result.readings());
    String files = folder.resolve("readings-*.parquet").toString();
    assertThat(rawRow(FINGERPRINT.replace("iiot.readings", "read_parquet('" + files + "')")))
        .isEqualTo(rawRow(FINGERPRINT));
    assertThat(row("SELECT count(*), sum(high) FROM read_parquet('" + folder + "/tags.parquet')"))
        .isEqualTo(row("SELECT count(*), sum(high) FROM iiot.tags"));
  }

  @Test
  void refusesALakeHoldingAnotherPlant(@TempDir Path folder) {
    try (Lake other = Lake.open(folder)) {
      IiotGenerator.builder().scale(Scale.TINY).hours(1).build().generate(other);
      IiotGenerator mini = IiotGenerator.builder().scale(Scale.MINI).hours(1).build();
      assertThatThrownBy(() -> mini.generate(other))
          .hasMessageStartingWith("Cannot generate the mini plant in warehouse ")
          .hasMessageEndingWith(
              ": iiot.tags holds 20 tags, the plant has 100 (drop iiot.tags and iiot.readings,"
                  + " or use another warehouse)");
    }
  }

  @Test
  void withoutAutoMaintainEveryAppendLeavesItsFilesInPlace(@TempDir Path folder) {
    try (Lake other = Lake.open(folder)) {
      IiotGenerator.builder()
          .scale(Scale.TINY)
          .hours(6)
          .autoMaintain(false)
          .build()
          .generate(other);
      assertThat(other.table(IiotGenerator.READINGS).settings())
          .containsEntry("auto-maintain", "false");
      assertThat(other.table(IiotGenerator.READINGS).info().files()).isGreaterThanOrEqualTo(6);
    }
    assertThat(lake.table(IiotGenerator.READINGS).settings())
        .containsEntry("auto-maintain", "true");
  }

  @Test
  void rejectsMoreHoursThanTheScaleHas() {
    IiotGenerator.Builder builder = IiotGenerator.builder().scale(Scale.TINY).hours(49);
    assertThatThrownBy(builder::build)
        .hasMessage("Invalid hours 49 for scale tiny: expected at most 48");
    assertThatThrownBy(() -> IiotGenerator.builder().hours(0))
        .hasMessage("Invalid hours 0: expected at least 1");
  }

  private static List<Object> fingerprint(Path folder, long seed) {
    try (Lake other = Lake.open(folder)) {
      IiotGenerator.builder().scale(Scale.TINY).seed(seed).hours(2).build().generate(other);
      try (Session session = other.newSession().set("read-dedup", "false");
          QueryResult rows = session.sql(FINGERPRINT)) {
        return rows.rows().get(0);
      }
    }
  }

  private static long longValue(String sql) {
    return ((Number) row(sql).get(0)).longValue();
  }

  private static long rawLong(String sql) {
    return ((Number) rawRow(sql).get(0)).longValue();
  }

  private static List<Object> row(String sql) {
    return rows(sql).get(0);
  }

  private static List<Object> rawRow(String sql) {
    try (Session session = lake.newSession().set("read-dedup", "false");
        QueryResult rows = session.sql(sql)) {
      return rows.rows().get(0);
    }
  }

  private static List<List<Object>> rows(String sql) {
    try (Session session = lake.newSession();
        QueryResult rows = session.sql(sql)) {
      return rows.rows();
    }
  }
}

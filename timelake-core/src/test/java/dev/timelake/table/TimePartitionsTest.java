package dev.timelake.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Chunk;
import dev.timelake.TestRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TimePartitionsTest {
  private static final Type TIMESTAMPTZ = Types.TimestampType.withZone();
  private static final long MIN_MICROS = micros("0001-01-01T00:00:00Z");
  private static final long MAX_MICROS = micros("9999-12-31T23:59:59.999999Z");

  private static Connection duckdb;

  @BeforeAll
  static void startDuckDb() throws SQLException {
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = duckdb.createStatement()) {
      statement.execute("SET TimeZone = 'UTC'");
    }
  }

  @AfterAll
  static void stopDuckDb() throws SQLException {
    duckdb.close();
  }

  @ParameterizedTest
  @EnumSource(Chunk.class)
  void ordinalEqualsIcebergTransform(Chunk chunk) {
    TestRandom random = TestRandom.create();
    Function<Long, Integer> iceberg = icebergTransform(chunk);
    for (long micros : samples(chunk, random)) {
      assertThat(TimePartitions.ordinal(chunk, micros))
          .as("%s of %d (%s)", chunk, micros, random)
          .isEqualTo(iceberg.apply(micros));
    }
  }

  @ParameterizedTest
  @EnumSource(Chunk.class)
  void labelEqualsIcebergHumanString(Chunk chunk) {
    TestRandom random = TestRandom.create();
    Transform<Long, Integer> transform = transform(chunk);
    for (long micros : samples(chunk, random)) {
      int ordinal = TimePartitions.ordinal(chunk, micros);
      String human = transform.toHumanString(Types.IntegerType.get(), ordinal);
      // Iceberg prints hours as 2026-01-01-05; Timelake as 2026-01-01T05.
      String expected =
          chunk == Chunk.HOUR ? human.substring(0, 10) + "T" + human.substring(11) : human;
      assertThat(TimePartitions.label(chunk, ordinal))
          .as("%s of %d (%s)", chunk, micros, random)
          .isEqualTo(expected);
    }
  }

  @ParameterizedTest
  @EnumSource(Chunk.class)
  void partitionBoundsContainTheTimestamp(Chunk chunk) {
    TestRandom random = TestRandom.create();
    for (long micros : samples(chunk, random)) {
      int ordinal = TimePartitions.ordinal(chunk, micros);
      assertThat(TimePartitions.startMicros(chunk, ordinal))
          .as("%s of %d (%s)", chunk, micros, random)
          .isLessThanOrEqualTo(micros);
      assertThat(TimePartitions.endMicros(chunk, ordinal))
          .as("%s of %d (%s)", chunk, micros, random)
          .isGreaterThan(micros);
      assertThat(TimePartitions.ordinal(chunk, TimePartitions.startMicros(chunk, ordinal)))
          .isEqualTo(ordinal);
      assertThat(TimePartitions.ordinal(chunk, TimePartitions.endMicros(chunk, ordinal) - 1))
          .isEqualTo(ordinal);
    }
  }

  @ParameterizedTest
  @EnumSource(Chunk.class)
  void ordinalSqlInDuckDbEqualsOrdinal(Chunk chunk) throws SQLException {
    TestRandom random = TestRandom.create();
    List<Long> samples = samples(chunk, random);
    List<String> values = samples.stream().map(micros -> "(" + micros + ")").toList();
    String sql =
        "SELECT us, "
            + TimePartitions.ordinalSql(chunk, "make_timestamptz(us)")
            + " FROM (VALUES "
            + String.join(", ", values)
            + ") AS t(us) ORDER BY us";
    int checked = 0;
    try (Statement statement = duckdb.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        long micros = result.getLong(1);
        assertThat(result.getInt(2))
            .as("%s of %d (%s)", chunk, micros, random)
            .isEqualTo(TimePartitions.ordinal(chunk, micros));
        checked++;
      }
    }
    assertThat(checked).isEqualTo(samples.size());
  }

  /** Random µs between years 1 and 9999, and the edges of partitions around interesting days. */
  private static List<Long> samples(Chunk chunk, TestRandom random) {
    List<Long> samples = new ArrayList<>();
    for (String day :
        List.of(
            "0001-01-01T00:00:00Z",
            "1600-03-01T00:00:00Z",
            "1899-12-31T00:00:00Z",
            "1969-12-01T00:00:00Z",
            "1969-12-31T00:00:00Z",
            "1970-01-01T00:00:00Z",
            "1970-02-01T00:00:00Z",
            "2000-02-29T00:00:00Z",
            "2026-01-01T00:00:00Z",
            "2038-01-19T00:00:00Z",
            "9999-12-31T00:00:00Z")) {
      long start = micros(day);
      for (long edge : List.of(start, start + 3_600_000_000L, start + 86_400_000_000L)) {
        samples.add(edge);
        samples.add(edge - 1);
        samples.add(edge + 1);
      }
    }
    samples.add(0L);
    samples.add(-1L);
    samples.add(1L);
    for (int i = 0; i < 2000; i++) {
      samples.add(random.between(MIN_MICROS, MAX_MICROS));
    }
    for (int i = 0; i < 500; i++) {
      samples.add(random.between(-100 * 86_400_000_000L, 100 * 86_400_000_000L));
    }
    samples.removeIf(micros -> micros < MIN_MICROS || micros > MAX_MICROS);
    return samples;
  }

  private static Function<Long, Integer> icebergTransform(Chunk chunk) {
    return transform(chunk).bind(TIMESTAMPTZ)::apply;
  }

  private static Transform<Long, Integer> transform(Chunk chunk) {
    return switch (chunk) {
      case HOUR -> Transforms.hour();
      case DAY -> Transforms.day();
      case MONTH -> Transforms.month();
    };
  }

  private static long micros(String instant) {
    Instant parsed = Instant.parse(instant);
    return Math.addExact(
        Math.multiplyExact(parsed.getEpochSecond(), 1_000_000L), parsed.getNano() / 1000);
  }
}

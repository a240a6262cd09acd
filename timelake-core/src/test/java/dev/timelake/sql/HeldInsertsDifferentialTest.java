package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TestRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * INSERTs of constants handed to a session's tier (converted in Java by {@link ConstantRows}) write
 * exactly what the same INSERTs write through DuckDB: random values of every spelling a client
 * sends (numbers, decimals, strings of numbers, instants with and without offsets, local times in
 * clock changes, casts, typed literals, NULLs, nonsense) go into two like tables, one session with
 * a tier and one without; each statement succeeds or fails alike (with the same message), and the
 * tables end equal. Replay a failure with {@code -Dtests.seed=…}.
 */
class HeldInsertsDifferentialTest extends WithLakeSession {
  private static final String COLUMNS =
      "(tag VARCHAR, time TIMESTAMPTZ, i INTEGER, b BIGINT, d DOUBLE, f FLOAT, ok BOOLEAN,"
          + " day DATE, ts TIMESTAMP, s VARCHAR)";

  private static final List<String> ZONES =
      List.of("UTC", "Etc/GMT-3", "Europe/Berlin", "America/New_York", "Asia/Kolkata");

  private static final List<String> NUMBERS =
      List.of(
          "0",
          "7",
          "-3",
          "+4",
          "2147483647",
          "2147483648",
          "-2147483649",
          "9007199254740993",
          "9223372036854775807",
          "9223372036854775808",
          "16777217",
          "1.5",
          "-0.0",
          "0.1",
          "123456789012.125",
          "123456789012345.125",
          "1e5",
          "0.30000000000000004",
          ".5",
          "5.");

  private static final List<String> TEXTS =
      List.of(
          "''",
          "'12'",
          "'-12'",
          "'1.25'",
          "'0.1'",
          "'1e3'",
          "' 5'",
          "'abc'",
          "'it''s'",
          "'2026-01-05 10:00:00+00'",
          "'2026-01-05 10:00:00.123456+01:00'",
          "'2026-01-05T10:00:00Z'",
          "'2026-01-05 10:00'",
          "'2026-01-05'",
          "'2026-03-29 02:30:00'",
          "'2026-10-25 02:30:00'",
          "'2026-03-08 02:30:00'",
          "'2026-11-01 01:30:00'",
          "'2026-02-30 10:00:00'",
          "'2026-01-05 24:00:00'",
          "'2026-01-05 10:00:00.1234567'",
          "'2026-01-05 10:00:00+0530'",
          "'+7'",
          "'007'",
          "'.5'",
          "'5.'",
          "'0000-01-01 00:00:00+00'",
          "'1969-12-31 23:59:59.999999+00'",
          "'true'",
          "'t'",
          "E'a\\nb'");

  private static final List<String> TYPES =
      List.of("DOUBLE", "TIMESTAMPTZ", "VARCHAR", "INTEGER", "BIGINT", "DATE", "TIMESTAMP");

  @Test
  void heldInsertsWriteWhatInsertsThroughTheEngineWrite() {
    TestRandom random = TestRandom.create();
    run("CREATE TABLE t.held " + COLUMNS + " WITH (time_column = 'time', series_key = 'tag')");
    run("CREATE TABLE t.plain " + COLUMNS + " WITH (time_column = 'time', series_key = 'tag')");
    int statements = Integer.getInteger("timelake.differential.inserts", 100);
    long failures = 0;
    try (TestTier tier = new TestTier(lake);
        Session held = lake.newSession().holdWritesIn(tier)) {
      for (int n = 0; n < statements; n++) {
        if (n % 30 == 0) {
          String zone = ZONES.get(random.nextInt(ZONES.size()));
          held.sql("SET TimeZone = '" + zone + "'").close();
          run("SET TimeZone = '" + zone + "'");
        }
        String values = rows(random, n);
        String heldAnswer = answer(held, "INSERT INTO t.held " + values);
        String plainAnswer = answer(session, "INSERT INTO t.plain " + values);
        assertThat(heldAnswer.replace("t.held", "t.?"))
            .as("%s (%s)", values, random)
            .isEqualTo(plainAnswer.replace("t.plain", "t.?"));
        if (heldAnswer.startsWith("error")) {
          failures++;
        }
      }
      tier.commitHeld();
      run("SET TimeZone = 'UTC'");
      String columns = "tag, time, i, b, d, f, ok, day, ts, s";
      assertThat(rows("SELECT " + columns + " FROM t.held ORDER BY tag"))
          .as("tables after %d statements (%s)", statements, random)
          .isEqualTo(rows("SELECT " + columns + " FROM t.plain ORDER BY tag"));
      assertThat(tier.held())
          .as("statements held (%s)", random)
          .hasSizeGreaterThan(statements / 20);
    }
    assertThat(failures).as("statements refused (%s)", random).isGreaterThan(statements / 10);
  }

  /** A VALUES list of one to three rows, each with a new tag, every other value drawn. */
  private static String rows(TestRandom random, int statement) {
    StringBuilder sql = new StringBuilder();
    boolean named = random.nextBoolean();
    if (named) {
      sql.append("(tag, time, i, b, d, f, ok, day, ts, s) ");
    }
    sql.append("VALUES ");
    int rows = 1 + random.nextInt(3);
    boolean typical = random.nextInt(3) > 0; // mostly what a driver sends: held, when right
    for (int r = 0; r < rows; r++) {
      sql.append(r == 0 ? "" : ", ")
          .append("('r")
          .append(statement)
          .append('-')
          .append(r)
          .append("'");
      sql.append(", ").append(random.nextInt(8) == 0 ? value(random) : time(random));
      for (int c = 0; c < 8; c++) {
        sql.append(", ")
            .append(typical && random.nextInt(24) > 0 ? typical(random, c) : value(random));
      }
      sql.append(')');
    }
    return sql.toString();
  }

  /** A value a client would send for column {@code c} of i, b, d, f, ok, day, ts, s. */
  private static String typical(TestRandom random, int c) {
    int n = random.nextInt(2000) - 1000;
    return switch (c) {
      case 0, 1 -> Integer.toString(n);
      // as pgjdbc binds a double; and fractions of one scale, as a VALUES column combines them
      case 2 -> "CAST('" + random.nextGaussian() + "' AS DOUBLE)";
      case 3 -> String.format(java.util.Locale.ROOT, "%.2f", n / 4.0);
      case 4 -> random.nextBoolean() ? "TRUE" : "FALSE";
      case 5 -> "'2026-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10) + "'";
      case 6 -> "'2026-03-29 0" + random.nextInt(10) + ":" + (10 + random.nextInt(50)) + ":00'";
      default -> (random.nextBoolean() ? "'text " : "'it''s ") + n + "'";
    };
  }

  private static String time(TestRandom random) {
    if (random.nextInt(3) == 0) {
      // local times, some in the spring and autumn changes of Berlin and New York
      return "'2026-"
          + List.of("03-29", "10-25", "03-08", "11-01").get(random.nextInt(4))
          + " 0"
          + random.nextInt(4)
          + ":"
          + (10 + random.nextInt(50))
          + ":00'";
    }
    return "'2026-01-0" + (1 + random.nextInt(9)) + " 0" + random.nextInt(10) + ":00:00+00'";
  }

  private static String value(TestRandom random) {
    return switch (random.nextInt(8)) {
      case 0 -> "NULL";
      case 1 -> random.nextBoolean() ? "TRUE" : "FALSE";
      case 2, 3 -> NUMBERS.get(random.nextInt(NUMBERS.size()));
      case 4, 5 -> TEXTS.get(random.nextInt(TEXTS.size()));
      case 6 ->
          "CAST("
              + TEXTS.get(random.nextInt(TEXTS.size()))
              + " AS "
              + TYPES.get(random.nextInt(TYPES.size()))
              + ")";
      default ->
          random.nextBoolean()
              ? TEXTS.get(random.nextInt(TEXTS.size()))
                  + "::"
                  + TYPES.get(random.nextInt(TYPES.size()))
              : List.of("TIMESTAMPTZ ", "TIMESTAMP ", "DATE ").get(random.nextInt(3))
                  + TEXTS.get(random.nextInt(TEXTS.size()));
    };
  }

  /** What running {@code sql} says: its message, or "error: " and the error's. */
  private static String answer(Session on, String sql) {
    try (QueryResult result = on.sql(sql)) {
      return "rows " + result.rowCount().orElse(-1);
    } catch (dev.timelake.TimelakeException e) {
      return "error: " + e.getMessage();
    }
  }
}

package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hot tier against direct commits: the same random writes (copies of a key, late rows, batches
 * of one to twenty rows) go to one table through the server — line protocol held in the tier or
 * committed at once ({@code sync=commit}), PostgreSQL INSERTs and COPYs held — and to a like table
 * through an embedded session, a commit each, in the same order; the tier is flushed at random
 * points and the server crashed and restarted at others. Every check reads the first table over
 * PostgreSQL (raw rows, hourly buckets routed to a rollup where they can be, the latest row per
 * series, the newest rows first) and finds what the second holds. {@code -Dtests.seed=<hex>}
 * replays a run.
 */
class HotTierDifferentialTest extends WithLineProtocolServer {
  private static final HotTierSettings HELD =
      new HotTierSettings(1_000_000, Duration.ofHours(1), 64L << 20);

  private static final List<String> QUERIES =
      List.of(
          "SELECT tag, time, value FROM %s ORDER BY tag, time",
          "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS hour, count(*), sum(value),"
              + " max(value) FROM %s GROUP BY ALL ORDER BY ALL",
          "SELECT tag, time, value FROM %s QUALIFY row_number() OVER (PARTITION BY tag ORDER BY"
              + " time DESC) = 1 ORDER BY tag",
          "SELECT tag, time, value FROM %s ORDER BY time DESC, tag LIMIT 7");

  private TieredServers served;
  private Connection connection;

  @AfterEach
  void stop() throws Exception {
    close();
  }

  private void open() throws Exception {
    served = TieredServers.start(lake, HELD);
    connection = served.connection;
  }

  private void close() throws Exception {
    if (served != null) {
      served.close();
      served = null;
    }
  }

  @Test
  void queriesOverTheTierEqualThoseOverDirectCommits() throws Exception {
    long seed = TestSeed.seed();
    String replay = "-Dtests.seed=" + Long.toHexString(seed);
    Random random = new Random(seed);
    for (String table : List.of("iot.tiered", "iot.direct")) {
      sql(
          "CREATE TABLE "
              + table
              + " (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
              + " WITH (time_column = 'time', series_key = 'tag')");
      sql(
          "CREATE MATERIALIZED ROLLUP "
              + table
              + "_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time) AS bucket, count(*),"
              + " sum(value), max(value) FROM "
              + table
              + " GROUP BY tag, bucket");
    }
    open();
    for (int step = 0; step < 40; step++) {
      List<long[]> rows = new ArrayList<>(); // {tag, seconds, value × 4}
      int count = 1 + random.nextInt(20);
      for (int i = 0; i < count; i++) {
        long hours = step < 20 ? random.nextInt(6) : random.nextInt(12); // late rows, copies
        rows.add(
            new long[] {
              random.nextInt(5), hours * 3600 + random.nextInt(4) * 900, random.nextInt(400)
            });
      }
      int path = random.nextInt(4);
      switch (path) {
        case 0 -> assertThat(lineProtocol(rows, "").statusCode()).isEqualTo(204);
        case 1 -> assertThat(lineProtocol(rows, "&sync=commit").statusCode()).isEqualTo(204);
        case 2 -> copy(connection, "iot.tiered", rows);
        default -> insert(connection, "iot.tiered", rows);
      }
      sql(insertSql("iot.direct", rows));
      int event = random.nextInt(10);
      if (event == 0) {
        HotTier.of(lake).orElseThrow().flush(Duration.ofSeconds(30));
      } else if (event == 1) {
        HotTier.of(lake).orElseThrow().halt(); // a crash: the next start replays the log
        close();
        open();
      } else if (event < 5) {
        check(replay + " at step " + step);
      }
    }
    check(replay + " at the end");
  }

  private void check(String when) throws SQLException {
    for (String query : QUERIES) {
      assertThat(over(String.format(query, "iot.tiered")))
          .as("%s (%s)", query, when)
          .isEqualTo(rows(String.format(query, "iot.direct")));
    }
  }

  /** The rows of {@code sql} over this server's PostgreSQL port, as Java values. */
  private List<List<Object>> over(String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 1; c <= columns; c++) {
          Object value = result.getObject(c);
          row.add(
              value instanceof java.sql.Timestamp stamp
                  ? stamp.toInstant().atOffset(java.time.ZoneOffset.UTC)
                  : value instanceof java.math.BigDecimal decimal
                      ? (Object) decimal.doubleValue()
                      : value instanceof Integer whole ? (Object) whole.longValue() : value);
        }
        out.add(row);
      }
    }
    return out;
  }

  private static final long BASE = 1_767_225_600L;

  private HttpResponse<String> lineProtocol(List<long[]> rows, String query) throws Exception {
    StringBuilder lines = new StringBuilder();
    for (long[] row : rows) {
      lines
          .append("tiered,tag=t")
          .append(row[0])
          .append(" value=")
          .append(row[2] / 4.0)
          .append(' ')
          .append(BASE + row[1])
          .append('\n');
    }
    return http.send(
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:"
                        + served.lineProtocol.port()
                        + "/api/v2/write?bucket=iot&precision=s"
                        + query))
            .header("Authorization", "Token " + PASSWORD)
            .POST(HttpRequest.BodyPublishers.ofString(lines.toString()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void insert(Connection to, String table, List<long[]> rows) throws SQLException {
    try (Statement statement = to.createStatement()) {
      statement.executeUpdate(insertSql(table, rows));
    }
  }

  private static String insertSql(String table, List<long[]> rows) {
    List<String> values = new ArrayList<>();
    for (long[] row : rows) {
      values.add("('t" + row[0] + "', '" + time(row) + "', " + value(row) + ")");
    }
    return "INSERT INTO " + table + " VALUES " + String.join(", ", values);
  }

  /** The rows as pgjdbc's CopyManager sends a CSV: one COPY, held by the tier once checked. */
  private static void copy(Connection to, String table, List<long[]> rows) throws Exception {
    StringBuilder csv = new StringBuilder();
    for (long[] row : rows) {
      csv.append('t').append(row[0]).append(',').append(time(row)).append(',');
      csv.append(value(row)).append('\n');
    }
    to.unwrap(org.postgresql.PGConnection.class)
        .getCopyAPI()
        .copyIn(
            "COPY " + table + " FROM STDIN (FORMAT csv)", new java.io.StringReader(csv.toString()));
  }

  private static String time(long[] row) {
    return java.time.Instant.ofEpochSecond(BASE + row[1])
        .toString()
        .replace('T', ' ')
        .replace("Z", "+00");
  }

  private static String value(long[] row) {
    return String.format(java.util.Locale.ROOT, "%.2f", row[2] / 4.0);
  }
}

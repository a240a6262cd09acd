package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The line-protocol server's hot tier: a write is answered once in the log, committed later (by
 * age, by rows, when the server stops), read by this server's clients' queries as it is held (as
 * its commit will read: copies, late rows, routed, latest and newest-first queries), and after a
 * crash every answered write is committed exactly once; the newest write of a key still wins.
 */
class HotTierTest extends WithLineProtocolServer {
  private static final HotTierSettings HELD =
      new HotTierSettings(1_000_000, Duration.ofHours(1), 64L << 20);

  private LineProtocolServer tiered;

  @AfterEach
  void stopTiered() {
    if (tiered != null) {
      tiered.close();
    }
  }

  private HttpResponse<String> write(LineProtocolServer to, String query, String lines)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:"
                        + to.port()
                        + "/api/v2/write?bucket=iot&precision=s"
                        + query))
            .header("Authorization", "Token " + PASSWORD)
            .POST(HttpRequest.BodyPublishers.ofString(lines))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HotTier tierOf(Lake lake) {
    return HotTier.of(lake).orElseThrow();
  }

  private long count(String table) {
    return ((Number) rows("SELECT count(*) FROM " + table).get(0).get(0)).longValue();
  }

  private static final String TWO =
      "readings,tag=a value=1 1767225600\nreadings,tag=b value=2 1767225600\n";

  @Test
  void aWriteIsAnsweredOnceHeldAndCommittedLater() throws Exception {
    tiered = tiered(lake, HELD);
    assertThat(write(tiered, "", TWO).statusCode()).isEqualTo(204);
    assertThat(count("iot.readings")).isZero(); // held, not committed
    assertThat(tierOf(lake).stats().rows()).isEqualTo(2);
    tierOf(lake).flush(Duration.ofSeconds(30));
    assertThat(count("iot.readings")).isEqualTo(2);
    assertThat(tierOf(lake).stats().rows()).isZero();
    assertThat(lake.table("iot.readings").snapshots().get(0).summary())
        .containsEntry("timelake.user", "tl");
  }

  @Test
  void anotherProcessReadsWhatTheTierHolds() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (HotTierStatus.read(lake).map(HotTierStatus::rows).orElse(0L) != 2) {
      assertThat(System.nanoTime()).as("status written in time").isLessThan(deadline);
      Thread.sleep(20);
    }
    HotTierStatus status = HotTierStatus.read(lake).orElseThrow();
    assertThat(status.tables().get(dev.timelake.TableName.parse("iot.readings")).rows())
        .isEqualTo(2);
    assertThat(status.logBytes()).isPositive();
    tierOf(lake).flush(Duration.ofSeconds(30));
    tiered.close();
    tiered = null;
    assertThat(HotTierStatus.read(lake).orElseThrow().rows()).isZero();
  }

  @Test
  void heldRowsAreCommittedWhenTheOldestIsMaxAgeOld() throws Exception {
    tiered = tiered(lake, new HotTierSettings(1_000_000, Duration.ofMillis(200), 64L << 20));
    write(tiered, "", TWO);
    awaitCount("iot.readings", 2);
  }

  @Test
  void heldRowsAreCommittedWhenATableHoldsMaxRows() throws Exception {
    tiered = tiered(lake, new HotTierSettings(2, Duration.ofHours(1), 64L << 20));
    write(tiered, "", TWO);
    awaitCount("iot.readings", 2);
  }

  @Test
  void statementsOfTheServersClientsReadWhatItAnswered() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    assertThat(countOverPostgres("iot.readings")).isEqualTo(2);
  }

  @Test
  void aQueryReadsWhatIsHeldWithoutCommittingIt() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO + "other,tag=a value=1 1767225600\n");
    assertThat(countOverPostgres("iot.readings")).isEqualTo(2);
    assertThat(tierOf(lake).stats().rows()).as("still held").isEqualTo(3);
    assertThat(count("iot.readings")).as("nothing committed").isZero();
  }

  @Test
  void heldRowsAreReadAsTheirCommitWillReadThemByAnyQueryPath() throws Exception {
    tiered = tiered(lake, HELD);
    StringBuilder hours = new StringBuilder();
    for (int hour = 0; hour < 6; hour++) {
      for (String tag : List.of("a", "b")) {
        hours.append("readings,tag=").append(tag).append(" value=").append(hour + 1);
        hours.append(' ').append(1_767_225_600L + hour * 3_600L).append('\n');
      }
    }
    write(tiered, "", hours.toString());
    tierOf(lake).flush(Duration.ofSeconds(30));
    sql(
        "CREATE MATERIALIZED ROLLUP iot.readings_1h AS SELECT tag, time_bucket(INTERVAL '1 hour',"
            + " time) AS bucket, sum(value) AS total, count(*) AS n FROM iot.readings"
            + " GROUP BY tag, bucket");
    // Held: a late copy of a committed key (newer, so it wins), a new hour, a new series.
    write(
        tiered,
        "",
        "readings,tag=a value=100 1767225600\nreadings,tag=a value=7 1767247200\n"
            + "readings,tag=c value=9 1767229200\nreadings,tag=c value=8 1767229200\n");
    List<String> queries =
        List.of(
            "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS hour, sum(value), count(*)"
                + " FROM iot.readings GROUP BY tag, hour ORDER BY tag, hour",
            "SELECT tag, sum(value) FROM iot.readings GROUP BY tag ORDER BY tag",
            "SELECT tag, arg_max(value, time), max(time) FROM iot.readings GROUP BY tag"
                + " ORDER BY tag",
            "SELECT tag, time, value FROM iot.readings ORDER BY time DESC, tag LIMIT 3",
            "SELECT tag, time, value FROM iot.readings WHERE tag = 'c'");
    List<List<String>> held = new java.util.ArrayList<>();
    for (String query : queries) {
      held.add(overPostgres(query));
    }
    assertThat(tierOf(lake).stats().rows()).as("read, not committed").isEqualTo(4);
    tierOf(lake).flush(Duration.ofSeconds(30));
    for (int i = 0; i < queries.size(); i++) {
      assertThat(held.get(i)).as(queries.get(i)).isEqualTo(overPostgres(queries.get(i)));
    }
    assertThat(held.get(4)).as("a copy within the held rows: the later one").hasSize(1);
    assertThat(held.get(1).get(0))
        .as("the held copy replaced the committed row")
        .isEqualTo("a 127.0");
  }

  @Test
  void aTableHoldingMoreThanAQueryReadsIsCommittedFirst() throws Exception {
    tiered = tiered(lake, HELD);
    StringBuilder lines = new StringBuilder();
    for (long i = 0; i <= HotTier.READ_ROWS; i++) {
      lines.append("readings,tag=t").append(i % 100).append(" value=1 ");
      lines.append(1_767_225_600L + i / 100).append('\n');
    }
    write(tiered, "", lines.toString());
    assertThat(countOverPostgres("iot.readings")).isEqualTo(HotTier.READ_ROWS + 1);
    assertThat(tierOf(lake).stats().rows()).as("committed by the query").isZero();
  }

  @Test
  void aTableThatKeepsCopiesIsCommittedBeforeAQueryReadsIt() throws Exception {
    sql(
        "CREATE TABLE iot.events (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'tag', dedup = false)");
    tiered = tiered(lake, HELD);
    write(tiered, "", "events,tag=a value=1 1767225600\nevents,tag=a value=1 1767225600\n");
    assertThat(tierOf(lake).stats().rows()).isEqualTo(2);
    assertThat(countOverPostgres("iot.events")).isEqualTo(2);
    assertThat(tierOf(lake).stats().rows()).as("committed by the query").isZero();
  }

  @Test
  void aTableWhoseHotTierIsOffIsCommittedAtOnce() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    tierOf(lake).flush(Duration.ofSeconds(30));
    lake.table("iot.readings").alter(java.util.Map.of("hot-tier", "off"));
    write(tiered, "", "readings,tag=c value=3 1767225600\n");
    assertThat(count("iot.readings")).isEqualTo(3);
    assertThat(tierOf(lake).stats().rows()).isZero();
  }

  @Test
  void syncCommitAnswersOnceCommitted() throws Exception {
    tiered = tiered(lake, HELD);
    assertThat(write(tiered, "&sync=commit", TWO).statusCode()).isEqualTo(204);
    assertThat(count("iot.readings")).isEqualTo(2);
    HttpResponse<String> wrong = write(tiered, "&sync=later", TWO);
    assertThat(wrong.statusCode()).isEqualTo(400);
    assertThat(wrong.body()).contains("sync must be 'commit'").contains("not 'later'");
  }

  @Test
  void aTableWithAnOrderedIndexIsCommittedAtOnce() throws Exception {
    sql(
        "CREATE TABLE iot.bars (symbol VARCHAR, time TIMESTAMPTZ, close DOUBLE) WITH"
            + " (index_column = 'time', entity_columns = 'symbol', index_granularity = '1m')");
    tiered = tiered(lake, HELD);
    assertThat(write(tiered, "", "bars,symbol=A close=1.5 1767225600\n").statusCode())
        .isEqualTo(204);
    assertThat(count("iot.bars")).isEqualTo(1); // its conflicts are found by the commit
    assertThat(write(tiered, "", "bars,symbol=A close=2.5 1767225610\n").statusCode())
        .isEqualTo(400);
  }

  @Test
  void aResentRequestIsHeldOnce() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    write(tiered, "", TWO);
    tierOf(lake).flush(Duration.ofSeconds(30));
    assertThat(count("iot.readings")).isEqualTo(2);
  }

  @Test
  void theNewestWriteOfAKeyWinsWhicheverPathItTook() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", "readings,tag=a value=1 1767225600\n");
    write(tiered, "&sync=commit", "readings,tag=a value=2 1767225600\n"); // newer than the held
    write(tiered, "", "readings,tag=b value=3 1767225600\n");
    write(tiered, "&sync=commit", "readings,tag=b value=4 1767225600\n");
    write(tiered, "", "readings,tag=b value=5 1767225600\n"); // newer than the committed
    assertThat(overPostgres("SELECT tag, value FROM iot.readings ORDER BY tag"))
        .as("read with what is held")
        .containsExactly("a 2.0", "b 5.0");
    tierOf(lake).flush(Duration.ofSeconds(30));
    assertThat(rows("SELECT tag, value FROM iot.readings ORDER BY tag"))
        .containsExactly(List.of("a", 2.0), List.of("b", 5.0));
  }

  @Test
  void stoppingTheServerCommitsWhatItHolds() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    tiered.close();
    tiered = null;
    assertThat(count("iot.readings")).isEqualTo(2);
    assertThat(logFiles()).isEmpty();
  }

  @Test
  void afterACrashEveryAnsweredWriteIsCommittedOnce() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    write(tiered, "", "readings,tag=c value=3 1767225600\n");
    crash();
    assertThat(count("iot.readings")).isZero();
    tiered = tiered(lake, HELD); // commits what the log holds before it listens
    assertThat(count("iot.readings")).isEqualTo(3);
    tiered.close();
    tiered = tiered(lake, HELD);
    assertThat(count("iot.readings")).isEqualTo(3);
    assertThat(snapshots("iot.readings")).isEqualTo(1); // one append for both requests
  }

  @Test
  void aCrashAfterAFlushCommitsNothingTwice() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    tierOf(lake).flush(Duration.ofSeconds(30));
    write(tiered, "", "readings,tag=c value=3 1767225600\n");
    crash(); // the log still holds the flushed records beside the held one
    tiered = tiered(lake, HELD);
    assertThat(count("iot.readings")).isEqualTo(3);
    assertThat(rows("SELECT count(*) FROM iot.readings WHERE tag = 'a'"))
        .containsExactly(List.of(1L));
  }

  @Test
  void aDroppedTableDropsItsHeldWritesAndTheServerStarts() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO);
    crash();
    sql("DROP TABLE iot.readings");
    tiered = tiered(lake, HELD);
    assertThat(logFiles()).hasSize(1); // the new log's open segment only
  }

  @Test
  void aFailingFlushIsRetriedAndCommitsOnceItCan() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", TWO); // creates the table; its points are held
    Path data = warehouse.resolve("iot").resolve("readings").resolve("data");
    assertThat(data).doesNotExist();
    Files.createDirectories(data.getParent());
    Files.writeString(data, "in the way of the table's data files");
    assertThatThrownBy(() -> tierOf(lake).flush(Duration.ofSeconds(2)))
        .isInstanceOf(dev.timelake.CommitFailedException.class)
        .hasMessageContaining("could not commit its acknowledged writes")
        .hasMessageContaining("committing iot.readings fails");
    // Held after the failure: the retry takes exactly the failed flush's records, under its batch
    // id, so a commit that landed unseen could not be made again with more rows.
    write(tiered, "", "readings,tag=c value=3 1767225600\n");
    Files.delete(data);
    tierOf(lake).flush(Duration.ofSeconds(60));
    assertThat(count("iot.readings")).isEqualTo(3);
    assertThat(lake.table("iot.readings").snapshots())
        .extracting(snapshot -> snapshot.summary().get("timelake.batch-id"))
        .anySatisfy(id -> assertThat(id).endsWith(":1-1"))
        .anySatisfy(id -> assertThat(id).endsWith(":2-2"));
  }

  @Test
  void aColumnDroppedByAnotherProcessIsLeftOutOfTheHeldWrites() throws Exception {
    tiered = tiered(lake, HELD);
    write(tiered, "", "readings,tag=a value=1,extra=2 1767225600\n");
    sql("ALTER TABLE iot.readings DROP COLUMN extra"); // a session without the tier, as elsewhere
    tierOf(lake).flush(Duration.ofSeconds(30)); // was retried for ever
    assertThat(rows("SELECT * EXCLUDE (_ingest_ts) FROM iot.readings"))
        .containsExactly(List.of(java.time.OffsetDateTime.parse("2026-01-01T00:00Z"), "a", 1.0));
  }

  @Test
  void aWorkFolderThatCannotBeMadeStopsTheStartNamingIt() throws Exception {
    Path work = warehouse.resolve(".timelake-tmp");
    Files.createDirectories(work);
    Files.writeString(work.resolve("hot-tier"), "not a folder");
    assertThatThrownBy(() -> tiered(lake, HELD))
        .hasMessageContaining("Cannot create the work folder")
        .hasMessageContaining("hot-tier");
  }

  /** The rows of {@code table} as a client of this server's PostgreSQL port counts them. */
  private long countOverPostgres(String table) throws Exception {
    return Long.parseLong(overPostgres("SELECT count(*) FROM " + table).get(0));
  }

  /** What a client of this server's PostgreSQL port reads: each row's values, space-separated. */
  private List<String> overPostgres(String sql) throws Exception {
    try (PgServer pg =
            PgServer.start(
                lake, new InetSocketAddress("127.0.0.1", 0), new Credentials("tl", PASSWORD));
        Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + pg.port() + "/timelake", "tl", PASSWORD);
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      List<String> rows = new java.util.ArrayList<>();
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        List<String> values = new java.util.ArrayList<>();
        for (int c = 1; c <= columns; c++) {
          values.add(result.getString(c));
        }
        rows.add(String.join(" ", values));
      }
      return rows;
    }
  }

  /** The server stops as a crash would: nothing held is committed, the log stays. */
  private void crash() {
    tierOf(lake).halt();
    tiered.close();
    tiered = null;
  }

  private List<Path> logFiles() throws IOException {
    try (Stream<Path> files = Files.list(HotTier.folder(lake))) {
      return files.filter(file -> file.toString().endsWith(".wal")).toList();
    }
  }

  private void awaitCount(String table, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (count(table) != expected) {
      assertThat(System.nanoTime()).as("rows committed in time").isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}

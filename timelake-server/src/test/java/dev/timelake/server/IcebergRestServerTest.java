package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ColumnType;
import dev.timelake.IndexIntervalOverlapException;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import dev.timelake.catalog.Catalogs;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Iceberg REST catalog protocol in front of a warehouse's catalog: lakes opened with {@code
 * type=rest} create, append (two at once), read, maintain, refresh rollups, refuse ordered-index
 * conflicts and drop through it, with Iceberg's own REST client.
 */
class IcebergRestServerTest {
  @TempDir Path warehouse;
  private Catalog backing;
  private IcebergRestServer server;

  @BeforeEach
  void startServer() throws Exception {
    backing = Catalogs.openEmbedded(warehouse);
    server =
        IcebergRestServer.start(
            backing, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterEach
  void stopServer() throws Exception {
    server.close();
    if (backing instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  private Lake client() {
    return Lake.open(warehouse, Map.of("type", "rest", "uri", server.uri().toString()));
  }

  private static List<List<Object>> rows(Lake lake, String sql) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private static void append(Lake lake, int from, int count, double value) {
    var append = lake.table("iot.r").newAppend();
    for (int i = from; i < from + count; i++) {
      append.row(
          "t" + (i % 3),
          Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i).atOffset(ZoneOffset.UTC),
          value);
    }
    append.commit();
  }

  @Test
  void withCredentialsOnlyClientsPresentingThemAreServed() throws Exception {
    server.close();
    server =
        IcebergRestServer.start(
            backing,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            java.util.Optional.of(new Credentials("tl", "secret")));
    String uri = server.uri().toString();
    assertThatThrownBy(() -> Lake.open(warehouse, Map.of("type", "rest", "uri", uri)).close())
        .hasMessageContaining("Wrong or missing credentials");
    assertThatThrownBy(
            () ->
                Lake.open(warehouse, Map.of("type", "rest", "uri", uri, "token", "tl:wrong"))
                    .close())
        .hasMessageContaining("Wrong or missing credentials");
    try (Lake lake =
        Lake.open(warehouse, Map.of("type", "rest", "uri", uri, "token", "tl:secret"))) {
      lake.createTable(TableDefinition.builder("d.tags").column("tag", ColumnType.VARCHAR).build());
      assertThat(lake.tables()).contains(TableName.parse("d.tags"));
    }
  }

  @Test
  void lakesShareTablesThroughTheRestCatalog() throws Exception {
    try (Lake a = client();
        Lake b = client()) {
      a.createTable(
          TableDefinition.builder("iot.r")
              .column("tag", ColumnType.VARCHAR)
              .column("time", ColumnType.TIMESTAMPTZ)
              .column("value", ColumnType.DOUBLE)
              .timeColumn("time")
              .seriesKey("tag")
              .option("auto-maintain", "false")
              .build());
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<?>> writes = new ArrayList<>();
        writes.add(pool.submit(() -> append(a, 0, 100, 1.0)));
        writes.add(pool.submit(() -> append(b, 50, 100, 2.0)));
        for (Future<?> write : writes) {
          write.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(rows(b, "SELECT count(*) FROM iot.r")).containsExactly(List.of(150L));
      b.table("iot.r").newMaintenance().run();
      assertThat(rows(a, "SELECT count(*) FROM iot.r")).containsExactly(List.of(150L));
      try (Session session = a.newSession();
          QueryResult ignored =
              session.sql(
                  "CREATE MATERIALIZED ROLLUP iot.r_1m AS SELECT tag, time_bucket(INTERVAL '1"
                      + " minute', time) AS bucket, count(*) AS n FROM iot.r GROUP BY tag, bucket"
                      + " WITH (refresh_interval = 'off')")) {
        // created
      }
      append(b, 1_000, 60, 3.0);
      b.refreshRollup(TableName.parse("iot.r_1m"));
      assertThat(rows(a, "SELECT sum(n)::BIGINT FROM iot.r_1m")).containsExactly(List.of(210L));

      a.createTable(
          TableDefinition.builder("market.bars")
              .column("symbol", ColumnType.VARCHAR)
              .column("ts", ColumnType.TIMESTAMPTZ)
              .indexColumn("ts")
              .entityColumns("symbol")
              .indexGranularity("1m")
              .build());
      a.table("market.bars").newAppend().row("A", Instant.EPOCH.atOffset(ZoneOffset.UTC)).commit();
      assertThatThrownBy(
              () ->
                  b.table("market.bars")
                      .newAppend()
                      .row("A", Instant.EPOCH.plusSeconds(30).atOffset(ZoneOffset.UTC))
                      .commit())
          .isInstanceOf(IndexIntervalOverlapException.class);

      assertThat(a.dropTable(TableName.parse("market.bars"))).isTrue();
      assertThat(b.findTable(TableName.parse("market.bars"))).isEmpty();
      // The embedded catalog behind the server holds what the REST clients made.
      try (Lake local = Lake.open(warehouse)) {
        assertThat(local.tables()).contains(TableName.parse("iot.r"));
      }
    }
  }
}

package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded program's sessions, appends and JDBC connections on a tier opened on its own:
 * INSERTs, COPYs, appends and batches are held (other sessions see them once committed), the
 * session reads what it wrote, closing the tier commits the rest, and a lake has one tier in a
 * process.
 */
class StandaloneHotTierTest {
  private static final HotTierSettings HELD =
      new HotTierSettings(1_000_000, Duration.ofHours(1), 64L << 20);

  @TempDir Path warehouse;

  private static long committed(Lake lake) {
    try (Session plain = lake.newSession();
        QueryResult count = plain.sql("SELECT count(*) FROM iot.readings")) {
      return ((Number) count.rows().get(0).get(0)).longValue();
    }
  }

  @Test
  void anEmbeddedSessionsInsertsAndCopiesAreHeldUntilClosed() throws Exception {
    Path csv = warehouse.resolve("rows.csv");
    Files.writeString(csv, "tag,time,value\nb,2026-01-01 00:00:00+00,2.5\n");
    try (Lake lake = Lake.open(warehouse.resolve("lake"))) {
      createReadings(lake);
      try (StandaloneHotTier tier = StandaloneHotTier.open(lake, HELD);
          Session session = lake.newSession().holdWritesIn(tier.heldWrites("loader"))) {
        session.sql("INSERT INTO iot.readings VALUES ('a', '2026-01-01 00:00:00+00', 1.5)").close();
        try (QueryResult copied = session.copyFrom(new TableName("iot", "readings"), csv)) {
          assertThat(copied.message()).endsWith(", held in the hot tier");
        }
        assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(2);
        assertThat(committed(lake)).as("another session sees committed rows only").isZero();
        try (QueryResult count = session.sql("SELECT count(*) FROM iot.readings")) {
          assertThat(count.rows())
              .as("the session reads what it wrote")
              .containsExactly(List.of(2L));
        }
        assertThat(committed(lake)).as("read as held, not committed").isZero();
        session.sql("INSERT INTO iot.readings VALUES ('c', '2026-01-01 00:00:00+00', 3.5)").close();
      }
      assertThat(committed(lake)).as("closing the tier commits what it holds").isEqualTo(3);
      assertThat(HotTier.of(lake)).isEmpty();
    }
  }

  @Test
  void anEmbeddedAppendIsHeldAndCommittedByTheTier() throws Exception {
    try (Lake lake = Lake.open(warehouse)) {
      createReadings(lake);
      try (StandaloneHotTier tier = StandaloneHotTier.open(lake, HELD)) {
        dev.timelake.AppendResult held =
            lake.table(new TableName("iot", "readings"))
                .newAppend()
                .holdIn(tier.heldWrites("loader"))
                .row("a", java.time.Instant.parse("2026-01-01T00:00:00Z"), 1.5)
                .row("a", java.time.Instant.parse("2026-01-01T00:00:00Z"), 2.5)
                .row("b", java.time.Instant.parse("2026-01-01T00:00:00Z"), 3.5)
                .commit();
        assertThat(held.outcome()).isEqualTo(dev.timelake.AppendResult.Outcome.HELD);
        assertThat(held.rows()).isEqualTo(2);
        assertThat(held.copiesDropped()).isEqualTo(1);
        assertThat(held.snapshotId()).isEmpty();
        assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(3);
        assertThat(committed(lake)).isZero();
      }
      assertThat(committed(lake)).as("the later copy of a key kept").isEqualTo(2);
      try (Session plain = lake.newSession();
          QueryResult value = plain.sql("SELECT value FROM iot.readings WHERE tag = 'a'")) {
        assertThat(value.rows()).containsExactly(List.of(2.5));
      }
    }
  }

  @Test
  void aJdbcConnectionsBatchesAreHeldInATierOpenedOnItsLake() throws Exception {
    String url = "jdbc:timelake:" + warehouse;
    try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url)) {
      Lake lake = connection.unwrap(Lake.class);
      createReadings(lake);
      try (StandaloneHotTier tier = StandaloneHotTier.open(lake, HELD)) {
        connection.unwrap(Session.class).holdWritesIn(tier.heldWrites("jdbc"));
        try (java.sql.PreparedStatement insert =
            connection.prepareStatement("INSERT INTO iot.readings VALUES (?, ?, ?)")) {
          for (int i = 0; i < 3; i++) {
            insert.setString(1, "t" + i);
            insert.setString(2, "2026-01-01 00:00:00+00");
            insert.setDouble(3, i);
            insert.addBatch();
          }
          insert.executeBatch();
        }
        assertThat(HotTier.of(lake).orElseThrow().stats().rows()).isEqualTo(3);
        assertThat(committed(lake)).isZero();
        try (java.sql.Statement read = connection.createStatement();
            java.sql.ResultSet count = read.executeQuery("SELECT count(*) FROM iot.readings")) {
          count.next();
          assertThat(count.getLong(1)).as("the connection reads what it wrote").isEqualTo(3);
        }
      }
    }
  }

  private static void createReadings(Lake lake) {
    try (Session setup = lake.newSession()) {
      setup
          .sql(
              "CREATE TABLE iot.readings (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                  + " WITH (time_column = 'time', series_key = 'tag')")
          .close();
    }
  }

  @Test
  void aLakeHasOneTierInAProcess() throws Exception {
    try (Lake lake = Lake.open(warehouse);
        StandaloneHotTier tier = StandaloneHotTier.open(lake, HELD)) {
      assertThatThrownBy(() -> StandaloneHotTier.open(lake, HELD))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("The lake has a hot tier in this process already");
    }
  }
}

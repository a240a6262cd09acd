package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.AccessDeniedException;
import dev.timelake.ClientAccess;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Role;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions opened for a server's clients: whatever their role, they never run what reaches beyond
 * their own session — files, the engine's databases, extensions, instance-wide settings and
 * variables, objects in shared catalogs — and their role decides which of Timelake's statements
 * they may run. Every refusal names the statement and changes nothing; the session, and every other
 * session, goes on working.
 */
class ClientSessionPolicyTest {
  @TempDir static Path warehouse;
  private static Lake lake;

  @BeforeAll
  static void createTables() {
    lake = Lake.open(warehouse);
    try (Session local = lake.newSession()) {
      for (String table : List.of("iot.r", "plant.p")) {
        local
            .sql(
                "CREATE TABLE "
                    + table
                    + " (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column ="
                    + " 'time', series_key = 'device')")
            .close();
        local.sql("INSERT INTO " + table + " VALUES ('a', '2026-01-01 00:00:00+00', 1)").close();
      }
    }
  }

  @AfterAll
  static void close() {
    lake.close();
  }

  @Test
  void statementsReachingBeyondTheSessionAreRefusedWhateverTheRole() throws Exception {
    Path file = warehouse.resolve("iot/r/data/stolen.parquet");
    List<String> refused =
        List.of(
            "COPY (SELECT 42 AS value) TO '" + file + "' (FORMAT parquet)",
            "COPY iot.r FROM '" + warehouse.resolve("x.csv") + "'",
            "ATTACH '" + warehouse.resolve("other.db") + "' AS other",
            "DETACH memory",
            "USE system",
            "INSTALL httpfs",
            "LOAD httpfs",
            "EXPORT DATABASE '" + warehouse.resolve("export") + "'",
            "IMPORT DATABASE '" + warehouse.resolve("export") + "'",
            "SET lock_configuration = true",
            "SET threads = 1",
            "SET memory_limit = '1GB'",
            "SET GLOBAL TimeZone = 'UTC'",
            "SET VARIABLE secret = 1",
            "CREATE OR REPLACE MACRO memory.main.lower(x) AS 'owned'",
            "CREATE MACRO shared_macro(x) AS x",
            "CREATE VIEW shared_view AS SELECT 1",
            "CREATE SEQUENCE shared_sequence",
            "PRAGMA enable_profiling",
            "CALL pragma_version()",
            "CHECKPOINT",
            "SELECT 1; ATTACH ':memory:' AS sneaky");
    try (Session admin = lake.newSession(ClientAccess.of("root", Role.ADMIN))) {
      for (String statement : refused) {
        assertThatThrownBy(() -> admin.sql(statement).close())
            .as(statement)
            .isInstanceOf(AccessDeniedException.class)
            .hasMessageStartingWith("Cannot run ")
            .hasMessageContaining(" on this server: ")
            .extracting(e -> ((TimelakeException) e).sqlState())
            .isEqualTo("42501");
      }
      // Row changes of lake tables are refused for every session, with the way that works.
      for (String statement :
          List.of(
              "WITH a AS (SELECT 1) DELETE FROM iot.r",
              "WITH a AS (SELECT 1) UPDATE iot.r SET value = 2",
              "DELETE FROM iot.r USING iot.r AS o")) {
        assertThatThrownBy(() -> admin.sql(statement).close())
            .as(statement)
            .isInstanceOf(TimelakeException.class)
            .hasMessageStartingWith("Cannot ");
      }
      assertThat(count(admin, "SELECT count(*) FROM iot.r")).isEqualTo(1);
    }
    assertThat(file).doesNotExist();
    assertThat(warehouse.resolve("other.db")).doesNotExist();
    assertThat(warehouse.resolve("export")).doesNotExist();
    try (Session other = lake.newSession()) {
      assertThat(rows(other, "SELECT lower('ABC'), current_setting('threads') > 1"))
          .containsExactly(List.of("abc", true));
      assertThat(
              count(
                  other, "SELECT count(*) FROM duckdb_databases() WHERE database_name = 'sneaky'"))
          .isZero();
    }
  }

  @Test
  void refusalsNameTheStatementAndWhy() {
    try (Session reader = lake.newSession(ClientAccess.of("grafana", Role.READ))) {
      assertThatThrownBy(() -> reader.sql("COPY (SELECT 1) TO '/tmp/x.csv'"))
          .hasMessage(
              "Cannot run COPY on this server: the server's files are not the client's: send data"
                  + " with COPY … FROM STDIN (psql: \\copy) and read it with COPY … TO STDOUT (psql:"
                  + " \\copy … to)");
      assertThatThrownBy(() -> reader.sql("SET threads = 1"))
          .hasMessageStartingWith(
              "Cannot run SET threads on this server: a client may change only settings of its"
                  + " own session (");
      assertThatThrownBy(() -> reader.sql("DETACH memory"))
          .hasMessage(
              "Cannot run DETACH on this server: the databases of the engine are shared by every"
                  + " session");
    }
  }

  @Test
  void whatStaysInsideTheSessionIsAllowed() {
    try (Session reader = lake.newSession(ClientAccess.of("grafana", Role.READ))) {
      run(reader, "SET TimeZone = 'Europe/Berlin'");
      run(reader, "CREATE TEMP TABLE scratch AS SELECT 1 AS a");
      run(reader, "INSERT INTO scratch VALUES (2)");
      run(reader, "CREATE TEMPORARY MACRO twice(x) AS x * 2");
      assertThat(count(reader, "SELECT twice(sum(a)) FROM scratch")).isEqualTo(6);
      run(reader, "DROP TABLE scratch");
      run(reader, "DROP MACRO twice");
      assertThat(rows(reader, "SELECT current_setting('TimeZone')"))
          .containsExactly(List.of("Europe/Berlin"));
      assertThat(count(reader, "FROM iot.r SELECT count(*)")).isEqualTo(1);
      run(reader, "DESCRIBE iot.r");
      run(reader, "SHOW TABLES");
      run(reader, "SUMMARIZE SELECT 1 AS a");
      run(reader, "PRAGMA version");
      run(reader, "EXPLAIN SELECT count(*) FROM iot.r");
      run(reader, "SELECT * FROM pg_catalog.pg_namespace");
    }
  }

  @Test
  void oneSessionsSettingsAndTemporaryObjectsAreInvisibleToAnother() {
    try (Session first = lake.newSession(ClientAccess.of("a", Role.READ));
        Session second = lake.newSession(ClientAccess.of("b", Role.READ))) {
      run(first, "SET TimeZone = 'Asia/Tokyo'");
      run(first, "CREATE TEMP MACRO lower(x) AS 'mine'");

      assertThat(rows(second, "SELECT current_setting('TimeZone'), lower('ABC')"))
          .containsExactly(List.of("UTC", "abc"));
      assertThatThrownBy(() -> second.sql("DROP MACRO lower"))
          .isInstanceOf(AccessDeniedException.class)
          .hasMessageContaining("not a temporary object of this session");
    }
  }

  @Test
  void aReadUserMayOnlyRead() {
    try (Session reader = lake.newSession(ClientAccess.of("grafana", Role.READ))) {
      assertThatThrownBy(
              () -> reader.sql("INSERT INTO iot.r VALUES ('b', '2026-01-01 00:00:00+00', 2)"))
          .isInstanceOf(AccessDeniedException.class)
          .hasMessage(
              "Cannot INSERT INTO iot.r: user grafana has the role read, which may only read"
                  + " (write needed)");
      assertThatThrownBy(
              () ->
                  reader.sql(
                      "CREATE TABLE iot.x (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                          + " WITH (time_column = 'time', series_key = 'device')"))
          .hasMessageContaining("user grafana has the role read")
          .hasMessageEndingWith("(admin needed)");
      assertThatThrownBy(() -> reader.sql("DROP TABLE iot.r"))
          .hasMessageContaining("(admin needed)");
      assertThatThrownBy(() -> reader.sql("OPTIMIZE iot.r")).hasMessageContaining("(admin needed)");
      assertThatThrownBy(() -> reader.sql("DROP TABLE iot.missing"))
          .hasMessage("Cannot drop iot.missing: it does not exist");
      assertThatThrownBy(() -> reader.sql("TRUNCATE iot.r")).hasMessageContaining("(write needed)");
      assertThatThrownBy(() -> reader.sql("ALTER TABLE iot.r RENAME COLUMN value TO v"))
          .hasMessageContaining("(admin needed)");
      assertThatThrownBy(() -> reader.sql("CREATE TABLE iot.y AS SELECT 1 AS x"))
          .hasMessageContaining("(admin needed)");
      assertThat(count(reader, "SELECT count(*) FROM iot.r")).isEqualTo(1);
    }
    assertThat(lake.tables()).hasSize(2);
  }

  @Test
  void aWriteUserAppendsButChangesNoTable() {
    try (Session writer = lake.newSession(ClientAccess.of("telegraf", Role.WRITE))) {
      run(writer, "INSERT INTO plant.p VALUES ('w', '2026-01-02 00:00:00+00', 3)");
      assertThatThrownBy(() -> writer.sql("ALTER TABLE plant.p ADD COLUMN quality INTEGER"))
          .hasMessage(
              "Cannot ALTER TABLE plant.p: user telegraf has the role write, which may read and"
                  + " append to existing tables (admin needed)");
      assertThat(count(writer, "SELECT count(*) FROM plant.p WHERE device = 'w'")).isEqualTo(1);
    }
  }

  @Test
  void aUserLimitedToNamespacesReachesNoOther() {
    ClientAccess plantOnly = new ClientAccess("line-7", Role.WRITE, Set.of("plant"));
    try (Session session = lake.newSession(plantOnly)) {
      assertThat(count(session, "SELECT count(*) FROM plant.p WHERE device = 'a'")).isEqualTo(1);
      assertThatThrownBy(() -> session.sql("SELECT count(*) FROM iot.r"))
          .isInstanceOf(AccessDeniedException.class)
          .hasMessage("Cannot read iot.r: user line-7 may use only the namespaces plant, not iot");
      assertThatThrownBy(
              () -> session.sql("INSERT INTO iot.r VALUES ('x', '2026-01-01 00:00:00+00', 1)"))
          .hasMessage(
              "Cannot INSERT INTO iot.r: user line-7 may use only the namespaces plant, not iot");
      assertThat(rows(session, "SHOW TABLES"))
          .containsExactly(List.of("plant", "p", "time-series"));
      // The per-table views of statements the parser cannot handle hold the reachable tables only.
      assertThatThrownBy(() -> session.sql("FROM iot.r SELECT count(*)"))
          .hasMessageContaining("iot");
    }
  }

  @Test
  void theLocalUserKeepsTheFullPowerOfDuckdb() throws Exception {
    Path out = warehouse.resolveSibling(warehouse.getFileName() + "-local.csv");
    try (Session local = lake.newSession()) {
      run(local, "COPY (SELECT 42 AS answer) TO '" + out + "' (HEADER)");
      run(local, "SET threads = 2");
    } finally {
      assertThat(Files.readString(out)).isEqualTo("answer\n42\n");
      Files.deleteIfExists(out);
    }
  }

  private static void run(Session session, String sql) {
    session.sql(sql).close();
  }

  private static List<List<Object>> rows(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private static long count(Session session, String sql) {
    return ((Number) rows(session, sql).get(0).get(0)).longValue();
  }
}

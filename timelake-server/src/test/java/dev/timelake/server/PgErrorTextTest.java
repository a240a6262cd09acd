package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * What a client is told when a statement fails never shows where the warehouse lies on the server's
 * disk, nor Timelake's own names for its staging files and session databases: for bad queries,
 * writes, COPYs, refused statements and DDL over lake tables, in the message and in every field of
 * the ErrorResponse (detail, hint, where, internal query).
 */
class PgErrorTextTest extends WithPgServer {
  private static final String PASSWORD = "error password";

  PgErrorTextTest() {
    super(PASSWORD);
  }

  @BeforeEach
  void createTable() throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE iot.t (tag VARCHAR NOT NULL, time TIMESTAMPTZ NOT NULL, value DOUBLE, n"
              + " BIGINT) WITH (time_column = 'time', series_key = 'tag')");
      statement.execute(
          "INSERT INTO iot.t VALUES ('a', '2026-01-01 00:00:00+00', 1.5, 3),"
              + " ('b', '2026-01-01 00:01:00+00', 0, 0)");
    }
  }

  @Test
  void anErrorSaysWhereInTheQueryStringItPoints() throws Exception {
    try (Connection connection = connect("simple");
        Statement statement = connection.createStatement()) {
      PSQLException failure =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              PSQLException.class, () -> statement.execute("SELECT tag,\n  nope FROM iot.t"));
      // psql draws its caret under the 1-based character position the ErrorResponse gives.
      assertThat(failure.getServerErrorMessage().getPosition()).isEqualTo(15);
      failure =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              PSQLException.class, () -> statement.execute("SELECT 1; SELECT * FROM iot.nope"));
      assertThat(failure.getServerErrorMessage().getPosition()).isEqualTo(25);
      // A statement that repeats the start of an earlier one is found after it.
      failure =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              PSQLException.class, () -> statement.execute("SELECT tag FROM iot.t; SELECT tag"));
      assertThat(failure.getServerErrorMessage().getPosition()).isEqualTo(31);
    }
  }

  @Test
  void noErrorTextNamesTheWarehouseOrTheStagingFiles() throws Exception {
    List<String> statements =
        List.of(
            "SELECT * FROM iot.nope",
            "SELECT * FROM nope",
            "SELECT nope FROM iot.t",
            "SELECT value + 'abc' FROM iot.t",
            "SELECT sum(tag) FROM iot.t",
            "SELECT CAST(tag AS INTEGER) FROM iot.t",
            "SELECT * FROM iot.t WHERE time > 'not a time'",
            "SELECT n // 0 FROM iot.t WHERE n = 0",
            "INSERT INTO iot.t VALUES ('c', 'not a time', 1, 1)",
            "INSERT INTO iot.t VALUES ('c', '2026-01-01 00:00:00+00', 'abc', 1)",
            "INSERT INTO iot.t (nope) VALUES (1)",
            "INSERT INTO iot.t VALUES (NULL, NULL, 1, 1)",
            "INSERT INTO iot.t VALUES ('c', '2026-01-01 00:00:00+00', 1, 99999999999999999999)",
            "COPY iot.t TO '/tmp/timelake-refused.csv'",
            "ATTACH '" + warehouse.resolve("other.db") + "'",
            "CREATE MATERIALIZED ROLLUP iot.t_1h AS SELECT tag, nope(value) FROM iot.t GROUP BY"
                + " tag",
            "CREATE MATERIALIZED ROLLUP iot.t_2h AS SELECT * FROM iot.t",
            "DROP TABLE iot.missing",
            "ALTER TABLE iot.t ADD COLUMN value DOUBLE",
            "ALTER TABLE iot.t ALTER COLUMN nope TYPE BIGINT",
            "ALTER TABLE iot.missing ADD COLUMN x INTEGER",
            "CREATE TABLE iot.t (a INTEGER)",
            "UPDATE iot.t SET time = now()",
            "SELECT * FROM read_parquet('iot/t/data/*.parquet')",
            "REFRESH MATERIALIZED ROLLUP iot.nope");
    List<String> failures = new ArrayList<>();
    try (Connection connection = connect()) {
      for (String sql : statements) {
        try (Statement statement = connection.createStatement()) {
          statement.execute(sql);
          failures.add("did not fail: " + sql);
        } catch (SQLException e) {
          failures.addAll(leaks(sql, e));
        }
      }
      try (PreparedStatement query =
          connection.prepareStatement("SELECT * FROM iot.t WHERE time > ?::TIMESTAMPTZ")) {
        query.setString(1, "garbage");
        query.executeQuery();
        failures.add("did not fail: a bad timestamp parameter");
      } catch (SQLException e) {
        failures.addAll(leaks("a bad timestamp parameter", e));
      }
      for (String csv :
          List.of(
              "c,not a time,1,1\n",
              ",2026-01-01 00:00:00+00,1,1\n",
              "c,2026-01-01 00:00:00+00,abc,1\n",
              "c,2026-01-01 00:00:00+00\n",
              "c,2026-01-01 00:00:00+00,1,1,extra\n",
              "\"unterminated,2026-01-01 00:00:00+00,1,1\n")) {
        try {
          connection
              .unwrap(PGConnection.class)
              .getCopyAPI()
              .copyIn("COPY iot.t FROM STDIN (FORMAT csv)", new StringReader(csv));
          failures.add("did not fail: COPY of " + csv);
        } catch (SQLException e) {
          failures.addAll(leaks("COPY of " + csv.strip(), e));
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  /** What of {@code e}'s texts names the warehouse, a staging file or a session database. */
  private List<String> leaks(String sql, SQLException e) {
    List<String> texts = new ArrayList<>(List.of(String.valueOf(e.getMessage())));
    if (e instanceof PSQLException postgres && postgres.getServerErrorMessage() != null) {
      ServerErrorMessage server = postgres.getServerErrorMessage();
      for (String field :
          new String[] {
            server.getMessage(),
            server.getDetail(),
            server.getHint(),
            server.getWhere(),
            server.getInternalQuery()
          }) {
        if (field != null) {
          texts.add(field);
        }
      }
    }
    List<String> leaks = new ArrayList<>();
    String folder = warehouse.toAbsolutePath().toString();
    for (String text : texts) {
      for (String secret : List.of(folder, "__tl", "staging")) {
        if (text.contains(secret)) {
          leaks.add(sql + " -> names " + secret + ": " + text);
        }
      }
    }
    return leaks;
  }
}

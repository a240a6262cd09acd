package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.timelake.Lake;
import dev.timelake.Session;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failed statement's error points at the place in the user's text, whoever rewrote it. */
class StatementPositionTest {
  @TempDir static Path folder;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void open() {
    lake = Lake.open(folder.resolve("wh"));
    session = lake.newSession();
    session
        .sql(
            "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH"
                + " (time_column = 'time', series_key = 'device')")
        .close();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @Test
  void anUnknownColumnIsFoundInTheUsersTextNotInTheRewrite() {
    assertThat(position("SELECT nope FROM iot.r")).contains(new StatementPosition(7, 1, 8));
    assertThat(position("SELECT device,\n  nope\nFROM iot.r"))
        .contains(new StatementPosition(17, 2, 3));
    // Not inside a string that spells the same word.
    assertThat(position("SELECT 'nope', nope FROM iot.r"))
        .contains(new StatementPosition(15, 1, 16));
  }

  @Test
  void anUnknownTableOrFunctionIsMarkedWhereItIsNamed() {
    assertThat(position("SELECT * FROM iot.nope")).contains(new StatementPosition(14, 1, 15));
    assertThat(position("SELECT x FROM iot.r, -- foo(\n foo(1) AS t(x)"))
        .contains(new StatementPosition(30, 2, 2));
    assertThat(position("SELECT sum(device) FROM iot.r")).contains(new StatementPosition(7, 1, 8));
  }

  @Test
  void aSyntaxErrorIsMarkedAtTheTokenDuckDbStoppedAt() {
    assertThat(position("SELECT device, FROM iot.r WHERE"))
        .contains(new StatementPosition(26, 1, 27));
    // DuckDB's own caret, when it parsed the text as written: the second WHERE, not the first.
    assertThat(position("SELECT 1 WHERE true WHERE false"))
        .contains(new StatementPosition(20, 1, 21));
  }

  @Test
  void aFailureWithoutAPlaceHasNoPosition() {
    assertThat(position("INSERT INTO iot.r (device) VALUES ('a')")).isEmpty();
  }

  private static Optional<StatementPosition> position(String sql) {
    Throwable failure = catchThrowable(() -> session.sql(sql).close());
    assertThat(failure).as(sql).isNotNull();
    return StatementPosition.of(sql, failure);
  }
}

package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The Java functions registered in DuckDB are called by a logged-in client with NULL in every
 * position and odd values while a second client keeps querying: each call is answered (rows or an
 * error naming the argument), the other client never fails, and the server answers afterwards. A
 * NULL read in native code would end the whole process and drop both clients.
 */
class ServerFunctionFuzzTest extends WithPgServer {
  private static final List<String> ODD_VALUES =
      List.of(
          "NULL",
          "CAST(NULL AS VARCHAR)",
          "CAST(NULL AS TIMESTAMPTZ)",
          "''",
          "'market.nope'",
          "'a.b.c'",
          "'soon'",
          "'99999999-01-01'",
          "'0001-01-01'",
          "'9999-12-31'",
          "-9223372036854775808",
          "9223372036854775807",
          "0",
          "'market.bars'",
          "'2026-01-02'");

  ServerFunctionFuzzTest() {
    super("fuzz pw");
  }

  @Test
  void oddArgumentsNeverEndTheServerWhileAnotherClientQueries() throws Exception {
    try (Connection setup = connect();
        Statement statement = setup.createStatement()) {
      statement.execute(
          "CREATE TABLE market.bars (symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE) WITH"
              + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m')");
      statement.execute("INSERT INTO market.bars VALUES ('NVDA', '2026-01-02 14:30:00+00', 1)");
    }
    AtomicBoolean fuzzing = new AtomicBoolean(true);
    AtomicInteger readerQueries = new AtomicInteger();
    AtomicReference<Throwable> readerFailure = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              try (Connection connection = connect();
                  Statement statement = connection.createStatement()) {
                while (fuzzing.get()) {
                  try (ResultSet rows =
                      statement.executeQuery("SELECT count(*) FROM market.bars")) {
                    rows.next();
                    assertThat(rows.getLong(1)).isEqualTo(1);
                  }
                  readerQueries.incrementAndGet();
                }
              } catch (Throwable e) {
                readerFailure.set(e);
              }
            });
    reader.start();
    int answered = 0;
    try (Connection fuzzer = connect();
        Statement statement = fuzzer.createStatement()) {
      for (String call : calls()) {
        try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + call)) {
          rows.next();
        } catch (SQLException refused) {
          assertThat(refused.getMessage()).as(call).doesNotContain("\tat ", "Exception:");
        }
        answered++;
      }
    } finally {
      fuzzing.set(false);
      reader.join();
    }
    assertThat(readerFailure.get()).isNull();
    assertThat(answered).isEqualTo(calls().size());
    assertThat(readerQueries.get()).isPositive();
    try (Connection after = connect();
        ResultSet rows = after.createStatement().executeQuery("SELECT 42")) {
      rows.next();
      assertThat(rows.getInt(1)).isEqualTo(42);
    }
  }

  /** Each function with every odd value in every position, the others usual. */
  private static List<String> calls() {
    List<String> usual = List.of("'market.bars'", "'2026-01-02'", "'2026-01-03'", "1");
    List<String> calls = new ArrayList<>();
    for (String function :
        List.of("timelake_coverage", "timelake_gaps", "__timelake_coverage", "__timelake_gaps")) {
      int arity = function.endsWith("gaps") && function.startsWith("__") ? 4 : 3;
      for (int position = 0; position < arity; position++) {
        for (String odd : ODD_VALUES) {
          List<String> arguments = new ArrayList<>(usual.subList(0, arity));
          arguments.set(position, odd);
          calls.add(function + "(" + String.join(", ", arguments) + ")");
        }
      }
    }
    calls.add("timelake_gaps('market.bars', '2026-01-02', '2026-01-03', min_intervals := NULL)");
    calls.add("timelake_gaps('market.bars', '2026-01-02', '2026-01-03', min_intervals := -1)");
    return calls;
  }
}

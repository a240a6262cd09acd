package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.timelake.Lake;
import dev.timelake.testkit.ConformanceOutcome;
import dev.timelake.testkit.ConformanceOutcome.Done;
import dev.timelake.testkit.ConformanceOutcome.Failed;
import dev.timelake.testkit.ConformanceOutcome.Rows;
import dev.timelake.testkit.ConformancePath;
import dev.timelake.testkit.ConformanceScript;
import dev.timelake.testkit.ConformanceStep;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/**
 * The conformance script (docs/conformance.sql), statements as users write them, run on a fresh
 * warehouse through the embedded JDBC driver, pgjdbc and psql against the PostgreSQL server: each
 * path gives each statement's rows or exact refusal, and every mismatch is reported at once. The
 * shell runs the same script in timelake-cli's ShellConformanceTest.
 */
class ConformanceTest {
  private static final String PASSWORD = "conformance password";
  private static final Pattern ROW_COUNT = Pattern.compile("\\(\\d+ rows?\\)");

  @TempDir Path directory;
  private List<ConformanceStep> steps;

  @BeforeEach
  void readScript() throws IOException {
    steps = ConformanceScript.read(Path.of("docs", "conformance.sql"));
  }

  @Test
  void embeddedJdbcGivesWhatTheScriptSays() throws SQLException {
    List<ConformanceOutcome> outcomes = new ArrayList<>();
    try (Connection connection =
            DriverManager.getConnection("jdbc:timelake:" + directory.resolve("warehouse"));
        Statement statement = connection.createStatement()) {
      for (ConformanceStep step : steps) {
        outcomes.add(run(statement, step.sql()));
      }
    }
    assertConforms(ConformancePath.JDBC, outcomes);
  }

  @Test
  void pgjdbcGivesWhatTheScriptSays() throws Exception {
    List<ConformanceOutcome> outcomes = new ArrayList<>();
    try (Lake lake = Lake.open(directory.resolve("warehouse"));
        PgServer server = start(lake);
        Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + server.port() + "/timelake", "tl", PASSWORD);
        Statement statement = connection.createStatement()) {
      for (ConformanceStep step : steps) {
        outcomes.add(run(statement, step.sql()));
      }
    }
    assertConforms(ConformancePath.PGJDBC, outcomes);
  }

  @Test
  void psqlGivesWhatTheScriptSays() throws Exception {
    assumeTrue(psqlIsInstalled(), "psql is not installed (.ci/run installs it)");
    List<String> output;
    try (Lake lake = Lake.open(directory.resolve("warehouse"));
        PgServer server = start(lake)) {
      output = psql(server.port(), psqlScript());
    }
    assertConforms(ConformancePath.PSQL, psqlOutcomes(output));
  }

  private void assertConforms(ConformancePath path, List<ConformanceOutcome> outcomes) {
    List<String> mismatches = ConformanceScript.mismatches(path, steps, outcomes);
    if (!mismatches.isEmpty()) {
      fail(
          mismatches.size()
              + " statements differ from docs/conformance.sql:\n"
              + String.join("\n", mismatches));
    }
  }

  private static PgServer start(Lake lake) throws IOException {
    return PgServer.start(
        lake, new InetSocketAddress("127.0.0.1", 0), new Credentials("tl", PASSWORD));
  }

  /** What one statement gives a JDBC client: its rows, its update count or its refusal. */
  private static ConformanceOutcome run(Statement statement, String sql) {
    try {
      if (!statement.execute(sql)) {
        return new Done(Long.toString(statement.getLargeUpdateCount()));
      }
      try (ResultSet rows = statement.getResultSet()) {
        ResultSetMetaData metadata = rows.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= metadata.getColumnCount(); i++) {
          columns.add(metadata.getColumnLabel(i));
        }
        List<String> texts = new ArrayList<>();
        while (rows.next()) {
          List<String> values = new ArrayList<>();
          for (int i = 1; i <= columns.size(); i++) {
            String value = rows.getString(i);
            values.add(value == null ? "NULL" : value);
          }
          texts.add(String.join("|", values));
        }
        return new Rows(columns, texts);
      }
    } catch (SQLException e) {
      // pgjdbc's message adds "ERROR: " and the detail; the server's own message is the one sent.
      String message =
          e instanceof PSQLException server && server.getServerErrorMessage() != null
              ? server.getServerErrorMessage().getMessage()
              : e.getMessage();
      return new Failed(message, e.getSQLState());
    }
  }

  /**
   * The script for one psql run: each statement between markers, then its SQLSTATE and, after an
   * error, psql's LAST_ERROR_MESSAGE, all on standard output so that they keep their order.
   */
  private String psqlScript() {
    StringBuilder script = new StringBuilder();
    for (int i = 0; i < steps.size(); i++) {
      script.append("\\echo '@@step ").append(i).append("'\n");
      script.append(steps.get(i).sql()).append(";\n");
      script.append("\\echo '@@end' :SQLSTATE\n");
      script.append("\\if :ERROR\n\\echo '@@error' :LAST_ERROR_MESSAGE\n\\endif\n");
    }
    return script.toString();
  }

  /** The lines psql prints for {@code script}, one process for the whole script. */
  private List<String> psql(int port, String script) throws Exception {
    Path file = directory.resolve("conformance.psql");
    Files.writeString(file, script, StandardCharsets.UTF_8);
    List<String> command =
        WithPgServer.psqlCommand(
            port, "-P", "tuples_only=off", "-P", "null=NULL", "-f", file.toString());
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("PGPASSWORD", PASSWORD);
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return output.lines().toList();
  }

  /**
   * Each statement's outcome from psql's output: an error from the markers; rows when psql ends the
   * output with its row count, "(2 rows)"; else the command tag it printed.
   */
  private List<ConformanceOutcome> psqlOutcomes(List<String> output) {
    Map<Integer, List<String>> printed = new HashMap<>();
    Map<Integer, String> states = new HashMap<>();
    Map<Integer, String> errors = new HashMap<>();
    int step = -1;
    boolean inside = false;
    for (String line : output) {
      if (line.startsWith("@@step ")) {
        step = Integer.parseInt(line.substring("@@step ".length()));
        printed.put(step, new ArrayList<>());
        inside = true;
      } else if (line.startsWith("@@end ")) {
        states.put(step, line.substring("@@end ".length()));
        inside = false;
      } else if (line.startsWith("@@error ")) {
        errors.put(step, line.substring("@@error ".length()));
      } else if (inside) {
        printed.get(step).add(line);
      }
    }
    List<ConformanceOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < steps.size() && states.containsKey(i); i++) {
      List<String> lines = printed.get(i);
      if (!states.get(i).equals("00000")) {
        outcomes.add(new Failed(errors.getOrDefault(i, ""), states.get(i)));
      } else if (!lines.isEmpty() && ROW_COUNT.matcher(lines.get(lines.size() - 1)).matches()) {
        List<String> columns = List.of(lines.get(0).split("\\|", -1));
        outcomes.add(new Rows(columns, lines.subList(1, lines.size() - 1)));
      } else {
        outcomes.add(new Done(String.join("\n", lines)));
      }
    }
    return outcomes;
  }

  private static boolean psqlIsInstalled() {
    try {
      return new ProcessBuilder("psql", "--version").start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}

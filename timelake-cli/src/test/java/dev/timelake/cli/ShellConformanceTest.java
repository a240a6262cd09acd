package dev.timelake.cli;

import static org.assertj.core.api.Assertions.fail;

import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.testkit.ConformanceOutcome;
import dev.timelake.testkit.ConformanceOutcome.Done;
import dev.timelake.testkit.ConformanceOutcome.Failed;
import dev.timelake.testkit.ConformanceOutcome.Rows;
import dev.timelake.testkit.ConformancePath;
import dev.timelake.testkit.ConformanceScript;
import dev.timelake.testkit.ConformanceStep;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance script (docs/conformance.sql) typed into the SQL shell on a fresh warehouse, one
 * statement at a time in one session, as at the shell's prompt: an error ends the statement, not
 * the session. Each statement prints what the script says (rows as CSV, a message, or {@code error:
 * …}); every mismatch is reported at once. timelake-server's ConformanceTest runs the same script
 * through JDBC and psql.
 */
class ShellConformanceTest {
  @TempDir Path directory;

  @Test
  void shellGivesWhatTheScriptSays() throws Exception {
    List<ConformanceStep> steps = ConformanceScript.read(Path.of("docs", "conformance.sql"));
    List<ConformanceOutcome> outcomes = new ArrayList<>();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    try (Lake lake = Lake.open(directory.resolve("warehouse"));
        Session session = lake.newSession()) {
      Shell shell =
          new Shell(new StatementRunner(session, out, err).format(OutputFormat.CSV), out, err);
      for (ConformanceStep step : steps) {
        printed.reset();
        byte[] typed = (step.sql() + ";\n").getBytes(StandardCharsets.UTF_8);
        try {
          shell.runScript(new Streams(new ByteArrayInputStream(typed), out, err, false));
        } catch (TimelakeException e) {
          // What the shell prints after "error: ".
          outcomes.add(new Failed(e.getMessage(), null));
          continue;
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        outcomes.add(step.expectsRows(ConformancePath.SHELL) ? rows(text) : new Done(text.strip()));
      }
    }
    List<String> mismatches = ConformanceScript.mismatches(ConformancePath.SHELL, steps, outcomes);
    if (!mismatches.isEmpty()) {
      fail(
          mismatches.size()
              + " statements differ from docs/conformance.sql:\n"
              + String.join("\n", mismatches));
    }
  }

  /** The CSV the shell printed, as a header and rows of values joined by |. */
  private static Rows rows(String csv) {
    List<List<String>> records = records(csv);
    if (records.isEmpty()) {
      return new Rows(List.of(), List.of());
    }
    List<String> texts = new ArrayList<>();
    for (List<String> record : records.subList(1, records.size())) {
      texts.add(String.join("|", record));
    }
    return new Rows(records.get(0), texts);
  }

  /** The records of RFC 4180 CSV, as CsvPrinter writes it: quoted fields may hold , " and LF. */
  private static List<List<String>> records(String csv) {
    List<List<String>> records = new ArrayList<>();
    List<String> record = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < csv.length(); i++) {
      char c = csv.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        record.add(field.toString());
        field.setLength(0);
      } else if (c == '\n') {
        record.add(field.toString());
        field.setLength(0);
        records.add(record);
        record = new ArrayList<>();
      } else {
        field.append(c);
      }
    }
    return records;
  }
}

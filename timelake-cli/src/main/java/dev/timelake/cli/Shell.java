package dev.timelake.cli;

import dev.timelake.TimelakeException;
import dev.timelake.engine.StatementSplitter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jline.reader.EOFError;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The SQL shell: statements end with {@code ;} and may span lines; lines starting with {@code .}
 * are shell commands ({@code .help}). At a terminal it reads with JLine (editing, history); from a
 * pipe it reads the statements of stdin and stops at the first error.
 */
final class Shell {
  static final String PROMPT = "timelake> ";
  static final String CONTINUATION_PROMPT = "      -> ";
  private static final String HELP =
      """
      Statements end with ; and may span several lines. Shell commands:
        .help                        this help
        .quit, .exit                 leave the shell (also Ctrl-D)
        .timer on|off                print how long each statement took
        .format table|csv|json       how rows are printed
      Timelake SQL: SELECT … FROM ns.table, INSERT INTO, CREATE TABLE … WITH (time_column = …),
      DROP TABLE, SHOW TABLES, DESCRIBE ns.table, SET timelake.read_dedup = false, EXPLAIN SELECT …""";

  private final StatementRunner runner;
  private final PrintStream out;
  private final PrintStream err;

  Shell(StatementRunner runner, PrintStream out, PrintStream err) {
    this.runner = runner;
    this.out = out;
    this.err = err;
  }

  /** Runs the statements and shell commands of {@code streams.in()}; stops at the first error. */
  void runScript(Streams streams) {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(streams.in(), StandardCharsets.UTF_8));
    StringBuilder buffer = new StringBuilder();
    try {
      String line;
      while ((line = reader.readLine()) != null) {
        if (buffer.toString().isBlank() && line.strip().startsWith(".")) {
          buffer.setLength(0);
          if (!command(line.strip())) {
            return;
          }
          continue;
        }
        buffer.append(line).append('\n');
        if (StatementSplitter.isComplete(buffer.toString())) {
          StatementSplitter.statements(buffer.toString()).forEach(runner::run);
          buffer.setLength(0);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read statements from stdin", e);
    }
    StatementSplitter.statements(buffer.toString()).forEach(runner::run);
  }

  /** Reads statements at the terminal until {@code .quit} or Ctrl-D; errors do not end it. */
  void runInteractive(Path historyFile, String banner) {
    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
      LineReader reader =
          LineReaderBuilder.builder()
              .terminal(terminal)
              .appName("timelake")
              .parser(new StatementParser())
              .variable(LineReader.HISTORY_FILE, historyFile)
              .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION_PROMPT)
              .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
              .option(LineReader.Option.INSERT_BRACKET, false)
              .build();
      out.println(banner);
      out.flush();
      loop(reader);
      reader.getHistory().save();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open the terminal", e);
    }
  }

  private void loop(LineReader reader) {
    while (true) {
      String input;
      try {
        input = reader.readLine(PROMPT);
      } catch (UserInterruptException e) {
        continue;
      } catch (EndOfFileException e) {
        return;
      }
      try {
        if (input.strip().startsWith(".")) {
          if (!command(input.strip())) {
            return;
          }
        } else {
          StatementSplitter.statements(input).forEach(runner::run);
        }
      } catch (TimelakeException e) {
        out.flush();
        err.println("error: " + e.getMessage());
      } catch (RuntimeException e) {
        out.flush();
        err.println("error: " + e);
      }
    }
  }

  /** Runs a shell command; false when the shell should end. */
  boolean command(String line) {
    List<String> words = List.of(line.split("\\s+"));
    String argument = words.size() > 1 ? words.get(1).toLowerCase(Locale.ROOT) : "";
    switch (words.get(0).toLowerCase(Locale.ROOT)) {
      case ".quit", ".exit" -> {
        return false;
      }
      case ".help" -> out.println(HELP);
      case ".timer" -> {
        if (!argument.equals("on") && !argument.equals("off")) {
          throw TimelakeException.validation("Invalid .timer '%s' (expected on or off)", argument);
        }
        runner.timer(argument.equals("on"));
      }
      case ".format" -> {
        try {
          runner.format(OutputFormat.parse(argument));
        } catch (IllegalArgumentException e) {
          throw TimelakeException.validation("Invalid format %s", e.getMessage());
        }
      }
      default ->
          throw TimelakeException.validation(
              "Unknown shell command '%s' (try .help)", words.get(0));
    }
    out.flush();
    return true;
  }

  /** Asks JLine for another line until the input ends with a semicolon outside quotes. */
  private static final class StatementParser extends DefaultParser {
    StatementParser() {
      setEscapeChars(null);
    }

    @Override
    public ParsedLine parse(String line, int cursor, ParseContext context) {
      if (context == ParseContext.ACCEPT_LINE
          && !line.isBlank()
          && !line.strip().startsWith(".")
          && !StatementSplitter.isComplete(line)) {
        throw new EOFError(-1, -1, "statement not ended by ;", ";");
      }
      return super.parse(line, cursor, context);
    }
  }
}

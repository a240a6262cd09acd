package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.engine.StatementSplitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Runs SQL: statements from {@code -c} or {@code -f}, else the shell (or stdin when piped). */
@Command(
    name = "sql",
    sortOptions = false,
    description = {
      "Runs SQL statements, or opens the SQL shell.",
      "DuckDB SQL over the lake's tables, plus Timelake's CREATE TABLE … WITH (…), INSERT,"
          + " SET timelake.…, SHOW TABLES and DESCRIBE.",
      "Without -c or -f, opens an interactive shell; with piped input, runs the statements of"
          + " stdin and stops at the first error."
    },
    footer = {
      "%nExamples:",
      "  timelake sql -c \"SELECT tag, max(value) FROM iot.readings GROUP BY ALL ORDER BY ALL\"",
      "  timelake sql --format csv -c \"SELECT * FROM iot.readings\" > readings.csv",
      "  timelake sql < queries.sql",
      "  timelake sql"
    })
final class SqlCommand extends LakeCommand {
  @Mixin private SessionSettingOptions sessionSettings;

  @Option(
      names = {"-c", "--command"},
      paramLabel = "STATEMENT",
      description = "Statements to run (several separated by ;); repeatable.")
  private List<String> commands = new ArrayList<>();

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "A file of statements separated by ; to run.")
  private Path file;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "How rows are printed: table (default), csv, json (JSON Lines) or markdown.")
  private OutputFormat format = OutputFormat.TABLE;

  @Option(
      names = "--explain",
      description =
          "After each result, print what Timelake did (files planned, pruned, deduplicated; the DuckDB SQL) to stderr.")
  private boolean explain;

  @Override
  int run() {
    List<String> statements = new ArrayList<>();
    if (file != null) {
      statements.addAll(StatementSplitter.statements(read(file)));
    }
    commands.forEach(command -> statements.addAll(StatementSplitter.statements(command)));
    try (Lake lake = main.openLake(sessionSettings.settings);
        Session session = main.openSession(lake, sessionSettings.settings)) {
      StatementRunner runner =
          new StatementRunner(session, out(), err()).format(format).explain(explain);
      if (file != null || !commands.isEmpty()) {
        statements.forEach(runner::run);
      } else if (main.streams().interactive()) {
        new Shell(runner, out(), err()).runInteractive(historyFile(), banner(lake));
      } else {
        new Shell(runner, out(), err()).runScript(main.streams());
      }
    }
    return 0;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw TimelakeException.notFound("Cannot run %s: the file does not exist", file);
    } catch (IOException e) {
      throw TimelakeException.validation("Cannot read %s: %s", file, e.getMessage());
    }
  }

  /**
   * ~/.timelake_history, or when the home folder is not writable a file in the warehouse folder
   * (the temporary folder for a warehouse on object storage).
   */
  private Path historyFile() {
    Path home = Path.of(System.getProperty("user.home", "."));
    if (Files.isWritable(home)) {
      return home.resolve(".timelake_history");
    }
    return dev.timelake.storage.Warehouse.parse(main.warehouseLocation())
        .folder()
        .orElse(Path.of(System.getProperty("java.io.tmpdir")))
        .resolve(".timelake_history");
  }

  private static String banner(Lake lake) {
    return "Timelake SQL shell on "
        + lake.description()
        + ". End statements with ;  .help for help, .quit to leave.";
  }
}

package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Global options, help and the mapping of errors to messages and exit statuses. */
class MainTest {
  @TempDir Path directory;

  @Test
  void printsTheVersion() {
    Run run = CliRunner.runWithoutWarehouse("", Map.of(), "--version");

    assertThat(run.status()).isZero();
    assertThat(run.out()).matches("timelake \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\n");
  }

  @Test
  void helpListsEveryCommand() {
    Run run = CliRunner.runWithoutWarehouse("", Map.of(), "--help");

    assertThat(run.status()).isZero();
    for (String command :
        List.of("create", "import", "sql", "latest", "info", "ls", "alter", "drop", "settings")) {
      assertThat(run.out()).containsPattern("\\n  " + command + " +[A-Z]");
    }
  }

  @Test
  void everyCommandHelpShowsAnExample() {
    for (String command :
        List.of("create", "import", "sql", "latest", "info", "ls", "alter", "drop", "settings")) {
      Run run = CliRunner.runWithoutWarehouse("", Map.of(), command, "--help");

      assertThat(run.status()).isZero();
      assertThat(run.out())
          .as(command)
          .contains("Usage: timelake " + command)
          .contains("  timelake " + command);
    }
  }

  @Test
  void helpOfACommandAndAnUnknownCommandSeeEveryCommand() {
    Run help = CliRunner.runWithoutWarehouse("", Map.of(), "help", "sql");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("Usage: timelake sql");

    Run unknown = CliRunner.runWithoutWarehouse("", Map.of(), "--warehouse", "w", "sqll");
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unmatched argument at index 2: 'sqll'").contains("sql");
  }

  @Test
  void theSubcommandIsTheFirstArgumentNotAGlobalOptionOrItsValue() {
    assertThat(Main.subcommandName(new String[] {"--warehouse", "sql", "ls", "-l"}))
        .isEqualTo("ls");
    assertThat(
            Main.subcommandName(
                new String[] {"--verbose", "--catalog", "a=b", "--set", "x=y", "sql", "-c", "1"}))
        .isEqualTo("sql");
    assertThat(Main.subcommandName(new String[] {"--warehouse=w", "info"})).isEqualTo("info");
    assertThat(Main.subcommandName(new String[] {"--help"})).isNull();
  }

  @Test
  void missingCommandIsAUsageError() {
    Run run = CliRunner.runWithoutWarehouse("", Map.of());

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("Missing required subcommand\n");
  }

  @Test
  void unknownOptionIsAUsageError() {
    Run run = new CliRunner(directory).run("ls", "--long");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("Unknown option: '--long'\n");
  }

  @Test
  void unknownTableExitsWithNotFoundWithoutStackTrace() {
    Run run = new CliRunner(directory).run("info", "iot.nothing");

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.err())
        .isEqualTo(
            "error: Table iot.nothing does not exist in warehouse "
                + directory.toAbsolutePath()
                + " (the lake has no tables yet)\n");
  }

  @Test
  void verboseAndDebugPrintStackTraces() {
    Run verbose = new CliRunner(directory).run("--verbose", "info", "iot.nothing");
    Run debug =
        CliRunner.runWithoutWarehouse(
            "",
            Map.of("TIMELAKE_DEBUG", "1", "TIMELAKE_WAREHOUSE", directory.toString()),
            "info",
            "iot.nothing");

    for (Run run : List.of(verbose, debug)) {
      assertThat(run.status()).isEqualTo(3);
      assertThat(run.err())
          .startsWith("error: Table iot.nothing does not exist")
          .contains("NotFoundException")
          .contains("\tat dev.timelake.");
    }
  }

  @Test
  void warehouseComesFromTheEnvironmentAndIsCreated() {
    Path warehouse = directory.resolve("from-env");

    Run run =
        CliRunner.runWithoutWarehouse(
            "",
            Map.of("TIMELAKE_WAREHOUSE", warehouse.toString()),
            "create",
            "t",
            "--columns",
            "name VARCHAR");

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("Created table default.t\n");
    assertThat(Files.isDirectory(warehouse)).isTrue();
  }

  @Test
  void warehouseOptionIsAcceptedAfterTheCommand() {
    Path warehouse = directory.resolve("after");

    Run run =
        CliRunner.runWithoutWarehouse(
            "",
            Map.of(),
            "create",
            "t",
            "--columns",
            "name VARCHAR",
            "--warehouse",
            warehouse.toString());

    assertThat(run.status()).as(run.err()).isZero();
    assertThat(Files.isDirectory(warehouse)).isTrue();
  }

  @Test
  void rejectsABadSessionSettingValue() {
    Run run =
        new CliRunner(directory).run("--set", "timelake.read_dedup=maybe", "sql", "-c", "SELECT 1");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo("error: Invalid setting 'read-dedup': 'maybe' (expected true or false)\n");
  }

  @Test
  void acceptsSessionSettingsAfterTheCommandToo() throws IOException {
    CliRunner cli = new CliRunner(directory.resolve("after-set"));
    assertThat(
            cli.run(
                    "create",
                    "iot.r",
                    "--columns",
                    "tag VARCHAR, time TIMESTAMPTZ, value DOUBLE",
                    "--time-column",
                    "time",
                    "--series-key",
                    "tag")
                .status())
        .isZero();
    Path csv = directory.resolve("after-set.csv");
    Files.writeString(csv, "tag,time,value\na,2026-01-01T10:00:00Z,1.5\n");
    assertThat(cli.run("import", "iot.r", csv.toString(), "--batch-id", "one").status()).isZero();
    Files.writeString(csv, "tag,time,value\na,2026-01-01T10:00:00Z,2.5\n");
    assertThat(cli.run("import", "iot.r", csv.toString(), "--batch-id", "two").status()).isZero();
    String count = "SELECT count(*) AS n FROM iot.r";

    assertThat(cli.run("sql", "--format", "csv", "-c", count).out()).isEqualTo("n\n1\n");
    assertThat(
            cli.run("sql", "--set", "timelake.read_dedup=false", "--format", "csv", "-c", count)
                .out())
        .isEqualTo("n\n2\n");
    assertThat(
            cli.run("--set", "timelake.read_dedup=false", "sql", "--format", "csv", "-c", count)
                .out())
        .isEqualTo("n\n2\n");
    Run bad = cli.run("sql", "--set", "timelake.read_dedup=maybe", "-c", "SELECT 1");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err())
        .isEqualTo("error: Invalid setting 'read-dedup': 'maybe' (expected true or false)\n");
  }

  @Test
  void rejectsAnUnknownSessionSetting() {
    Run run = new CliRunner(directory).run("--set", "timelake.nope=1", "ls");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("error: Unknown setting 'timelake.nope' (known settings: ");
  }

  @Test
  void rejectsASettingNotAllowedInASession() {
    Run run = new CliRunner(directory).run("--set", "timelake.chunk=hour", "ls");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo("error: Setting 'chunk' cannot be set at session level (allowed: create)\n");
  }

  @Test
  void sqlOfAMissingFileExitsWithNotFound() {
    Path missing = directory.resolve("missing.sql");

    Run run = new CliRunner(directory).run("sql", "-f", missing.toString());

    assertThat(run.status()).isEqualTo(3);
    assertThat(run.err()).isEqualTo("error: Cannot run " + missing + ": the file does not exist\n");
  }
}

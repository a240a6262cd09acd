package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell's transactions, as a new user types them: a write between BEGIN and COMMIT keeps every
 * committed row (the data loss this guards against emptied a partition), ROLLBACK discards it.
 */
class TransactionCommandsTest {
  @TempDir Path directory;
  private CliRunner cli;

  /** iot.r with 3,000 readings a minute apart from 2026-01-01, 1,440 on the first day. */
  @BeforeEach
  void createAndLoad() {
    cli = new CliRunner(directory.resolve("warehouse"));
    succeeds(cli.createReadings("iot.r"));
    succeeds(
        cli.run(
            "sql",
            "-c",
            "INSERT INTO iot.r SELECT 'd' || (i % 5), TIMESTAMPTZ '2026-01-01 00:00:00+00' + i *"
                + " INTERVAL '1 minute', i FROM range(0, 3000) t(i)"));
  }

  @Test
  void insertBetweenBeginAndCommitKeepsEveryRow() {
    Run run =
        cli.run(
            "sql",
            "-c",
            "BEGIN",
            "-c",
            "INSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1)",
            "-c",
            "COMMIT",
            "-c",
            "SELECT count(*) FROM iot.r",
            "--format",
            "csv");

    succeeds(run);
    assertThat(run.out())
        .isEqualTo(
            "BEGIN\nInserted 1 row into iot.r, held until COMMIT\nCOMMIT: 1 row into iot.r\n"
                + "count_star()\n3001\n");
    assertThat(count("SELECT count(*) FROM iot.r WHERE time < '2026-01-02'")).isEqualTo("1441");
  }

  @Test
  void rollbackInTheInteractiveShellDiscardsTheInsert() {
    Run run =
        cli.runWithInput(
            "BEGIN;\nINSERT INTO iot.r VALUES ('zz', '2026-01-01 00:00:00+00', 1);\nROLLBACK;\n"
                + "COMMIT;\n",
            "sql");

    succeeds(run);
    assertThat(run.out()).contains("ROLLBACK");
    assertThat(run.err()).contains("warning: there is no transaction in progress");
    assertThat(count("SELECT count(*) FROM iot.r")).isEqualTo("3000");
  }

  private String count(String sql) {
    Run run = cli.run("sql", "-c", sql, "--format", "csv");
    succeeds(run);
    return run.out().lines().skip(1).findFirst().orElseThrow();
  }

  private static void succeeds(Run run) {
    assertThat(run.status()).as(run.err()).isZero();
  }
}

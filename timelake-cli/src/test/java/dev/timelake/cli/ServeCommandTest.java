package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What `timelake serve` refuses before it listens (serving itself is tested in the server). */
class ServeCommandTest {
  @TempDir Path directory;

  @Test
  void refusesToStartWithoutAPassword() {
    Run run = new CliRunner(directory.resolve("w")).run("serve", "--pg-port", "0");
    assertThat(run.status()).isNotZero();
    assertThat(run.err())
        .contains("set TIMELAKE_PASSWORD")
        .contains("the server admits nobody without one");
  }

  @Test
  void refusesABadStatementTimeout() {
    Run run =
        new CliRunner(directory.resolve("w"))
            .run("serve", "--pg-port", "0", "--statement-timeout", "soon");
    assertThat(run.status()).isNotZero();
    assertThat(run.err()).contains("Cannot serve").contains("expected a duration such as");
  }
}

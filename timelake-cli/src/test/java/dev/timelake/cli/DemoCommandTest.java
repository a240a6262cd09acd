package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code timelake demo} on two hours of the tiny plant, from timelake.jar's own classes. */
class DemoCommandTest {
  @TempDir Path directory;

  @Test
  void loadsThePlantRunsTheExamplesAndReusesTheHoursOnASecondRun() {
    CliRunner cli = new CliRunner(directory.resolve("warehouse"));
    Run first = cli.run("demo", "--hours", "2");
    assertThat(first.status()).as(first.err()).isZero();
    assertThat(first.out())
        .contains("Loaded ")
        .contains("in 2 hourly appends")
        .contains("-- Readings per line, copies removed on read")
        .contains("(answered from rollup iiot.readings_1h)")
        .contains("-- maintain iiot.readings: files ")
        .contains("Next: timelake sql");
    Run second = cli.run("demo", "--hours", "2");
    assertThat(second.status()).as(second.err()).isZero();
    assertThat(second.out()).contains("in 0 hourly appends");
  }

  @Test
  void benchPointsToTheBenchmarkJar() {
    Run help = CliRunner.runWithoutWarehouse("", Map.of(), "--help");
    assertThat(help.out()).containsPattern("\\n  bench +The IIoT benchmark");
    Run bench = CliRunner.runWithoutWarehouse("", Map.of(), "bench", "run", "--scale", "mini");
    assertThat(bench.status()).isEqualTo(2);
    assertThat(bench.err()).contains("the benchmark is not in timelake.jar").contains("./timelake");
  }
}

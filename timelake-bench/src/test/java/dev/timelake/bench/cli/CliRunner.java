package dev.timelake.bench.cli;

import dev.timelake.cli.Streams;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs {@code timelake-bench.jar}'s command in-process, capturing stdout and stderr. */
final class CliRunner {
  private final Path warehouse;

  CliRunner(Path warehouse) {
    this.warehouse = warehouse;
  }

  /** What one run printed and its exit status. */
  record Run(int status, String out, String err) {}

  /** Runs {@code timelake --warehouse <warehouse> args…} with empty stdin. */
  Run run(String... args) {
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse.toString()));
    all.addAll(List.of(args));
    return runWithoutWarehouse("", Map.of(), all.toArray(String[]::new));
  }

  /** Runs exactly {@code args} with the given environment. */
  static Run runWithoutWarehouse(String input, Map<String, String> environment, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Streams streams =
        new Streams(
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            false);
    int status = BenchMain.run(streams, environment, args);
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}

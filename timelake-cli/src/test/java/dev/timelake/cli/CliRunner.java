package dev.timelake.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs {@code timelake} in-process against one warehouse, capturing stdout and stderr. */
final class CliRunner {
  private final Path warehouse;

  CliRunner(Path warehouse) {
    this.warehouse = warehouse;
  }

  /** What one run printed and its exit status. */
  record Run(int status, String out, String err) {}

  /** Runs {@code timelake --warehouse <warehouse> args…} with empty stdin. */
  Run run(String... args) {
    return runWithInput("", args);
  }

  /** Runs with {@code input} as (piped) stdin. */
  Run runWithInput(String input, String... args) {
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse.toString()));
    all.addAll(List.of(args));
    return runWithoutWarehouse(input, Map.of(), all.toArray(String[]::new));
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
    int status = new Main(streams, environment).commandLineFor(args, List.of()).execute(args);
    return new Run(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /**
   * Creates {@code name} as {@code (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)}, time column
   * time, series key device, through {@code timelake create}.
   */
  Run createReadings(String name) {
    return run(
        "create",
        name,
        "--columns",
        "device VARCHAR, time TIMESTAMPTZ, value DOUBLE",
        "--time-column",
        "time",
        "--series-key",
        "device");
  }
}

package dev.timelake.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Unmatched;

/**
 * Where {@code timelake bench} points when this jar runs without the benchmark: the benchmark, with
 * its generator, QuestDB and an S3 server, is a separate jar ({@code timelake-bench.jar}) so that
 * {@code timelake.jar} stays small and starts fast. The {@code ./timelake} launcher runs that jar
 * for {@code bench}.
 */
@Command(
    name = "bench",
    description = {
      "The IIoT benchmark: generates a plant's readings and measures the benchmark's queries"
          + " side by side with plain DuckDB and QuestDB (in timelake-bench.jar; the ./timelake"
          + " launcher runs it)."
    },
    footer = {
      "%nExample:",
      "  ./timelake --warehouse ./bench-mini bench generate --scale mini",
      "  ./timelake --warehouse ./bench-mini bench run --scale mini --runs 3"
    })
final class BenchCommand implements Callable<Integer> {
  static final String NOT_IN_THIS_JAR =
      "the benchmark is not in timelake.jar: run it through the ./timelake launcher (./timelake"
          + " bench …), or build it with mvn -pl timelake-bench -am package -DskipTests and run"
          + " java -jar timelake-bench/target/timelake-bench.jar bench …";

  @ParentCommand Main main;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Unmatched private List<String> arguments;

  @Override
  public Integer call() {
    main.streams().err().println("error: " + NOT_IN_THIS_JAR);
    return 2;
  }
}

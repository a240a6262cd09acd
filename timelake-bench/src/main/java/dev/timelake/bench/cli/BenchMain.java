package dev.timelake.bench.cli;

import dev.timelake.cli.Main;
import dev.timelake.cli.Streams;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code timelake-bench.jar}: the {@code timelake} command with the benchmark's {@code bench}
 * subcommands in place of the pointer {@code timelake.jar} has, so the benchmark's dependencies
 * (QuestDB, an S3 server) stay out of the product's jar.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) {
    Streams streams = Streams.system();
    int status = commandLine(new Main(streams, System.getenv()), args).execute(args);
    streams.out().flush();
    streams.err().flush();
    System.exit(status);
  }

  /** The command line of {@code main} to run {@code args}, the benchmark as its {@code bench}. */
  static CommandLine commandLine(Main main, String[] args) {
    return main.commandLineFor(args, List.of(new BenchCommand()));
  }

  /** Runs {@code args} reading and writing {@code streams}, with {@code environment}. */
  static int run(Streams streams, Map<String, String> environment, String... args) {
    return commandLine(new Main(streams, environment), args).execute(args);
  }
}

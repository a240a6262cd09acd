package dev.timelake.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Base of the {@code rollup} subcommands: the global options and streams, through the group. */
abstract class RollupSubcommand implements Callable<Integer> {
  @ParentCommand RollupCommand rollup;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  Main main() {
    return rollup.main;
  }

  PrintStream out() {
    return main().streams().out();
  }

  @Override
  public final Integer call() {
    try {
      return run();
    } finally {
      out().flush();
    }
  }

  /** Does the command's work; returns the exit status. */
  abstract int run();
}

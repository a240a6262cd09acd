package dev.timelake.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Option;

/**
 * What every subcommand has: {@code --help}, the streams of {@link Main}, and an exit status from
 * {@link #run()}; output is flushed when it returns. Failures are thrown as {@link
 * dev.timelake.TimelakeException} and mapped by {@link Main}.
 */
abstract class CommandBase implements Callable<Integer> {
  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  /** The {@code timelake} command this subcommand runs under. */
  abstract Main main();

  PrintStream out() {
    return main().streams().out();
  }

  PrintStream err() {
    return main().streams().err();
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

package dev.timelake.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * Base of the subcommands: access to the global options and streams of {@link Main}. A subcommand
 * returns its exit status; failures are thrown as {@link dev.timelake.TimelakeException} and mapped
 * by {@link Main}.
 */
abstract class LakeCommand implements Callable<Integer> {
  @ParentCommand Main main;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  PrintStream out() {
    return main.streams().out();
  }

  PrintStream err() {
    return main.streams().err();
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

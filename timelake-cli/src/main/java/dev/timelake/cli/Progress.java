package dev.timelake.cli;

import java.io.PrintStream;

/** One status line on a terminal, rewritten in place; cleared when the work is done. */
public final class Progress {
  private static final String CLEAR_TO_END_OF_LINE = "\033[K";
  private final PrintStream terminal;

  public Progress(PrintStream terminal) {
    this.terminal = terminal;
  }

  public void show(String message) {
    terminal.print("\r" + message + "…" + CLEAR_TO_END_OF_LINE);
    terminal.flush();
  }

  public void clear() {
    terminal.print("\r" + CLEAR_TO_END_OF_LINE);
    terminal.flush();
  }
}

package dev.timelake.cli;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Where a command reads and writes: stdin, stdout, stderr, and whether a person is at a terminal
 * (progress output and the interactive shell need one). Tests pass in-memory streams.
 */
public record Streams(InputStream in, PrintStream out, PrintStream err, boolean interactive) {

  public Streams {
    requireNonNull(in, "in is null");
    requireNonNull(out, "out is null");
    requireNonNull(err, "err is null");
  }

  /** The process's streams, writing UTF-8; interactive when the JVM has a console. */
  public static Streams system() {
    PrintStream out =
        new PrintStream(
            new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
            false,
            StandardCharsets.UTF_8);
    PrintStream err =
        new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    return new Streams(System.in, out, err, System.console() != null);
  }
}

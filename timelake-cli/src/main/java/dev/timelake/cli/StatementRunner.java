package dev.timelake.cli;

import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.io.PrintStream;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs statements in one session and prints what they return: rows in the chosen format, or the
 * statement's message. Optionally prints the explanation and the elapsed time to stderr.
 */
final class StatementRunner {
  private final Session session;
  private final PrintStream out;
  private final PrintStream err;
  private OutputFormat format = OutputFormat.TABLE;
  private boolean explain;
  private boolean timer;

  StatementRunner(Session session, PrintStream out, PrintStream err) {
    this.session = session;
    this.out = out;
    this.err = err;
  }

  StatementRunner format(OutputFormat format) {
    this.format = format;
    return this;
  }

  OutputFormat format() {
    return format;
  }

  StatementRunner explain(boolean explain) {
    this.explain = explain;
    return this;
  }

  StatementRunner timer(boolean timer) {
    this.timer = timer;
    return this;
  }

  boolean timer() {
    return timer;
  }

  /** Runs one statement and prints its rows or message. */
  void run(String statement) {
    long started = System.nanoTime();
    try (QueryResult result = session.sql(statement)) {
      if (result.hasRows()) {
        print(result, format.printer(out), session.zoneId());
      } else {
        out.println(result.message());
        out.flush();
      }
      result.warnings().forEach(warning -> err.println("warning: " + warning));
      if (explain) {
        result.explanation().forEach(err::println);
      }
    }
    if (timer) {
      double seconds = (System.nanoTime() - started) / 1e9;
      err.println(String.format(Locale.ROOT, "Run Time: %.3f s", seconds));
    }
  }

  /** Prints every row of {@code result}, instants in UTC. */
  static void print(QueryResult result, RowPrinter printer) {
    print(result, printer, ZoneOffset.UTC);
  }

  /** Prints every row of {@code result}, instants at their offset in {@code zone}. */
  static void print(QueryResult result, RowPrinter printer, ZoneId zone) {
    int columns = result.columnNames().size();
    printer.header(result.columnNames());
    List<Object> row = new ArrayList<>(columns);
    boolean utc = zone.normalized().equals(ZoneOffset.UTC);
    while (result.next()) {
      row.clear();
      for (int i = 0; i < columns; i++) {
        Object value = result.value(i);
        row.add(!utc && value instanceof OffsetDateTime time ? inZone(time, zone) : value);
      }
      printer.row(row);
    }
    printer.finish();
  }

  private static OffsetDateTime inZone(OffsetDateTime time, ZoneId zone) {
    return time.atZoneSameInstant(zone).toOffsetDateTime();
  }
}

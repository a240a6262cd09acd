package dev.timelake.testkit;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** What one statement gave on one path, as text. */
public sealed interface ConformanceOutcome {
  /** Rows: the column names and each row's values as text joined by {@code |}, null as NULL. */
  record Rows(List<String> columns, List<String> rows) implements ConformanceOutcome {
    public Rows {
      columns = List.copyOf(columns);
      rows = List.copyOf(rows);
    }

    @Override
    public String toString() {
      return "rows " + String.join("|", columns) + (rows.isEmpty() ? " (none)" : ": " + rows);
    }
  }

  /**
   * A statement without rows: the shell's message, psql's command tag or a JDBC update count, by
   * path.
   */
  record Done(String text) implements ConformanceOutcome {
    public Done {
      requireNonNull(text, "text is null");
    }

    @Override
    public String toString() {
      return "done '" + text + "'";
    }
  }

  /** A refusal: the message and, where the path has one, the SQLSTATE (else null). */
  record Failed(String message, String sqlState) implements ConformanceOutcome {
    public Failed {
      requireNonNull(message, "message is null");
    }

    @Override
    public String toString() {
      return "error " + (sqlState == null ? "" : sqlState + " ") + "'" + message + "'";
    }
  }
}

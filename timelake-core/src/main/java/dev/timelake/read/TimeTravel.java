package dev.timelake.read;

import dev.timelake.TimelakeException;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import dev.timelake.engine.SqlText;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.schema.Table;

/**
 * A table reference that reads an earlier snapshot: {@code t FOR SYSTEM_TIME AS OF 123} (a snapshot
 * id), {@code t FOR SYSTEM_TIME AS OF TIMESTAMP '2026-12-03 07:00:00+00'} or {@code t AT (TIMESTAMP
 * => '…')} (the newest snapshot in the table's current history committed at or before that time,
 * read in the session's time zone).
 */
public final class TimeTravel {
  private TimeTravel() {}

  /** True when {@code node} names an earlier snapshot. */
  public static boolean asks(Table node) {
    return clause(node).isPresent();
  }

  /**
   * The table pinned at the snapshot {@code node} names, and the node without its clause (DuckDB
   * reads the pinned files instead).
   */
  public static PinnedTable pin(Table node, PinnedTable current, EngineConnection connection) {
    String clause = clause(node).orElseThrow();
    node.setTimeTravel(null);
    node.setTimeTravelStrAfterAlias(null);
    List<Token> tokens = SqlLexer.tokens(clause).tokens();
    Token last =
        tokens.get(tokens.size() - 1).text().equals(")") && tokens.size() > 1
            ? tokens.get(tokens.size() - 2)
            : tokens.get(tokens.size() - 1);
    org.apache.iceberg.Table iceberg = current.table().iceberg();
    long snapshot;
    if (last.kind() == Kind.NUMBER && tokens.get(0).is("FOR")) {
      snapshot = Long.parseLong(last.text());
    } else if (last.kind() == Kind.STRING) {
      long millis = millis(current, last.text(), connection);
      try {
        snapshot = org.apache.iceberg.util.SnapshotUtil.snapshotIdAsOfTime(iceberg, millis);
      } catch (IllegalArgumentException e) {
        throw TimelakeException.notFound(
            "Cannot read %s as of %s: it keeps no snapshot that old; kept snapshots: %s",
            current.name(), last.text(), current.table().keptSnapshots());
      }
    } else {
      throw TimelakeException.validation(
          "Cannot read %s %s: write FOR SYSTEM_TIME AS OF SNAPSHOT_ID, FOR SYSTEM_TIME AS OF"
              + " TIMESTAMP '…' or AT (TIMESTAMP => '…')",
          current.name(), clause.strip());
    }
    if (iceberg.snapshot(snapshot) == null) {
      throw TimelakeException.notFound(
          "Cannot read %s as of snapshot %d: the table keeps no such snapshot; kept snapshots: %s",
          current.name(), snapshot, current.table().keptSnapshots());
    }
    return PinnedTable.at(current.table(), snapshot);
  }

  private static long millis(PinnedTable table, String literal, EngineConnection connection) {
    try {
      Object value =
          connection.scalar(
              "SELECT epoch_ms(CAST(" + SqlText.literal(unquoted(literal)) + " AS TIMESTAMPTZ))");
      return ((Number) value).longValue();
    } catch (TimelakeException e) {
      throw TimelakeException.validation(
          "Cannot read %s as of %s: it is not a time (e.g. '2026-12-03 07:00:00+00')",
          table.name(), literal);
    }
  }

  private static String unquoted(String literal) {
    return literal.substring(1, literal.length() - 1).replace("''", "'");
  }

  private static Optional<String> clause(Table node) {
    return Optional.ofNullable(node.getTimeTravel())
        .or(() -> Optional.ofNullable(node.getTimeTravelStrAfterAlias()))
        .filter(text -> !text.isBlank());
  }
}

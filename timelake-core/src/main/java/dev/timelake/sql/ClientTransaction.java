package dev.timelake.sql;

import dev.timelake.AppendResult;
import dev.timelake.TableName;
import dev.timelake.TransactionState;
import dev.timelake.TransactionStateException;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.write.PendingAppend;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A client's transaction ({@code BEGIN} … {@code COMMIT} or {@code ROLLBACK}) as far as the lake
 * goes. Writes to lake tables are checked and staged at once but held, one pending append per
 * table, until COMMIT commits them table by table (one Iceberg snapshot each, in the order the
 * tables were first written); ROLLBACK, a failed COMMIT or the session's end discards them.
 * Statements that would change the lake at once and could not be undone are refused inside; after a
 * failed statement every statement but ROLLBACK is refused, as PostgreSQL does. Not thread-safe.
 */
final class ClientTransaction {
  private TransactionState state = TransactionState.IDLE;
  private final Map<TableName, Pending> pending = new LinkedHashMap<>();
  private Map<String, String> settingsAtBegin = Map.of();

  /** A table's held writes and the operation its commit records (the first statement's). */
  private record Pending(PendingAppend append, String operation) {}

  /** One table's committed writes. */
  record Committed(TableName table, AppendResult result, Set<Integer> touchedPartitions) {}

  TransactionState state() {
    return state;
  }

  boolean isOpen() {
    return state == TransactionState.OPEN;
  }

  /** Opens the transaction, remembering the session's settings for a ROLLBACK. */
  void begin(Map<String, String> settings) {
    state = TransactionState.OPEN;
    settingsAtBegin = Map.copyOf(settings);
  }

  /** The session's settings when the transaction began. */
  Map<String, String> settingsAtBegin() {
    return settingsAtBegin;
  }

  /** Marks an open transaction failed after one of its statements failed. */
  void fail() {
    if (state == TransactionState.OPEN) {
      state = TransactionState.FAILED;
    }
  }

  /** Refuses every statement of a failed transaction. */
  void requireNotFailed() {
    if (state == TransactionState.FAILED) {
      throw TransactionStateException.aborted(
          "Cannot run the statement: an earlier statement of this transaction failed, so the"
              + " transaction is aborted and ignores statements until it ends; run ROLLBACK (its"
              + " writes are discarded) and start again");
    }
  }

  /**
   * Refuses, inside a transaction, a statement that would change the lake at once: {@code what}
   * says which, e.g. "CREATE TABLE iot.readings".
   */
  void refuseInside(String what) {
    if (state != TransactionState.IDLE) {
      throw TransactionStateException.insideTransaction(
          "Cannot run "
              + what
              + " inside a transaction: Timelake applies it at once and could not undo it at"
              + " ROLLBACK. End the transaction first (COMMIT or ROLLBACK) and run it on its own,"
              + " in autocommit mode (psycopg: conn.autocommit = True; JDBC:"
              + " setAutoCommit(true)); inside a transaction only INSERT and COPY FROM STDIN write"
              + " to lake tables, at COMMIT");
    }
  }

  /** The table's pending append, started on {@code connection} at its first write. */
  PendingAppend pendingFor(
      LoadedTable table, String operation, Supplier<EngineConnection> connection) {
    return pending
        .computeIfAbsent(
            table.name(),
            name -> new Pending(new PendingAppend(table, connection.get()), operation))
        .append();
  }

  /** True when the transaction holds rows for some table: its reads must see them. */
  boolean holdsRows() {
    return pending.values().stream().anyMatch(held -> held.append().rows() > 0);
  }

  /**
   * The rows held for {@code table} as a file in {@code folder} that the transaction's reads add to
   * the table's committed files; empty when it holds none.
   */
  List<dev.timelake.read.PlannedFile> heldRows(TableName table, java.nio.file.Path folder) {
    Pending held = pending.get(table);
    return held == null ? List.of() : held.append().heldRows(folder).stream().toList();
  }

  /** Rows held for each table, in the order the tables were first written. */
  Map<TableName, Long> heldRows() {
    Map<TableName, Long> rows = new LinkedHashMap<>();
    pending.forEach((name, held) -> rows.put(name, held.append().rows()));
    return rows;
  }

  /**
   * Commits every table's held writes, table by table, and ends the transaction. When a table's
   * commit fails, the later tables' writes are discarded and the error names the tables committed
   * before it (a lake commits one table at a time). Each snapshot's summary has {@code summary}'s
   * entries too (who wrote it).
   */
  List<Committed> commit(Map<String, String> summary, Consumer<String> progress) {
    List<Committed> committed = new ArrayList<>();
    try {
      for (Map.Entry<TableName, Pending> entry : pending.entrySet()) {
        PendingAppend append = entry.getValue().append();
        AppendResult result;
        try {
          result = append.commit(entry.getValue().operation(), Optional.empty(), summary, progress);
        } catch (dev.timelake.TimelakeException e) {
          throw partlyCommitted(entry.getKey(), committed, e);
        }
        committed.add(new Committed(entry.getKey(), result, append.touchedPartitions()));
      }
      return committed;
    } finally {
      end();
    }
  }

  private dev.timelake.TimelakeException partlyCommitted(
      TableName failed, List<Committed> committed, dev.timelake.TimelakeException cause) {
    List<String> later = new ArrayList<>();
    boolean after = false;
    for (TableName name : pending.keySet()) {
      if (after) {
        later.add(name.toString());
      }
      after |= name.equals(failed);
    }
    String before =
        committed.isEmpty()
            ? "nothing of the transaction was committed"
            : "committed before it: "
                + String.join(
                    ", ",
                    committed.stream()
                        .map(c -> c.table() + " (" + c.result().rows() + " rows)")
                        .toList());
    String discarded =
        later.isEmpty() ? "" : "; the writes to " + String.join(", ", later) + " were discarded";
    return new dev.timelake.TimelakeException(
        cause.code(),
        "Cannot commit the transaction's writes to "
            + failed
            + ": "
            + cause.getMessage()
            + "; "
            + before
            + discarded,
        cause);
  }

  /** Discards whatever is held and ends the transaction. */
  void end() {
    RuntimeException failure = null;
    for (Pending held : pending.values()) {
      try {
        held.append().close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    pending.clear();
    state = TransactionState.IDLE;
    settingsAtBegin = Map.of();
    if (failure != null) {
      throw failure;
    }
  }
}

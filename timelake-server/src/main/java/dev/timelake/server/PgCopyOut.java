package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code COPY … TO STDOUT}: the rows of a query's result sent as PostgreSQL sends them,
 * CopyOutResponse, a CopyData per line (the header, then each row, in text or CSV format), CopyDone
 * and {@code COPY n}. Rows go out as they are read, a buffer at a time, so a large table never sits
 * in the server's memory.
 */
final class PgCopyOut {
  /** How much is buffered before it is sent to the client. */
  private static final int CHUNK = 64 << 10;

  private PgCopyOut() {}

  /**
   * The query whose rows {@code copy} sends. A whole table's columns are those {@code COPY … FROM
   * STDIN} takes, all but the ingest time the server sets (as PostgreSQL leaves out generated
   * columns), so what is copied out can be copied back in; the session checks the query like any
   * other, so the table is only looked at here, never read.
   */
  static String query(Lake lake, PgCopyStatement.ToClient copy) {
    Optional<Table> table = copy.wholeTable().flatMap(lake::findTable);
    if (table.isEmpty() || table.get().ingestTimeColumn().isEmpty()) {
      return copy.query();
    }
    TableName name = table.get().name();
    return "SELECT "
        + SqlText.identifiers(PgCopy.visibleColumns(table.get()))
        + " FROM "
        + SqlText.qualified(name.namespace(), name.name());
  }

  /**
   * Sends the rows of {@code result}, the answer to {@code copy}, instants shown in {@code zone}
   * (the session's TimeZone, as PostgreSQL's COPY shows them).
   *
   * @throws TimelakeException when the query has no rows to copy or a row cannot be read (the
   *     client has been sent part of the rows then; an ErrorResponse ends the copy)
   */
  static void send(
      PgMessages.Writer out, QueryResult result, PgCopyStatement.ToClient copy, ZoneId zone)
      throws IOException {
    if (!result.hasRows()) {
      throw TimelakeException.validation(
          "Cannot COPY %s TO STDOUT: the statement returns no rows; put a SELECT inside the"
              + " parentheses",
          copy.source());
    }
    List<Integer> oids = result.columnTypes().stream().map(PgTypes::oid).toList();
    out.begin('H').int8(0).int16(oids.size()); // CopyOutResponse: text, every column text
    for (int i = 0; i < oids.size(); i++) {
      out.int16(0);
    }
    out.end();
    if (copy.header()) {
      out.begin('d').bytes(copy.format().line(result.columnNames())).end();
    }
    long rows = 0;
    List<String> values = new ArrayList<>(oids.size());
    while (result.next()) {
      values.clear();
      for (int i = 0; i < oids.size(); i++) {
        values.add(PgTypes.textOf(result.value(i), oids.get(i), zone));
      }
      out.begin('d').bytes(copy.format().line(values)).end();
      rows++;
      out.flushPast(CHUNK);
    }
    out.begin('c').end(); // CopyDone
    out.begin('C').string("COPY " + rows).end();
  }
}

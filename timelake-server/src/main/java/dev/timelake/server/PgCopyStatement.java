package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import java.util.List;
import java.util.Optional;

/**
 * A COPY between the client and the server, as {@link PgCopyParser} reads it: data the client sends
 * into a table ({@code COPY t FROM STDIN}), or rows the server sends to the client ({@code COPY t
 * TO STDOUT}, {@code COPY (SELECT …) TO STDOUT}). COPY to or from the server's files is neither;
 * the session refuses it.
 */
sealed interface PgCopyStatement {

  /**
   * {@code COPY table [(columns)] FROM STDIN} in CSV.
   *
   * @param columns the columns the data holds, in order; empty: the table's visible columns
   * @param header whether the data's first line names the columns (and is skipped)
   */
  record FromClient(TableName table, List<String> columns, boolean header)
      implements PgCopyStatement {
    public FromClient {
      requireNonNull(table, "table is null");
      columns = List.copyOf(columns);
    }
  }

  /**
   * {@code COPY … TO STDOUT}: the rows of {@code query}, run in the client's session like any
   * SELECT it sends.
   *
   * @param query the SELECT whose rows are copied: built from the table and columns named, or the
   *     client's own query from inside the parentheses
   * @param source what is copied, for messages: the table's name or "a query"
   * @param header whether a first line names the columns
   * @param wholeTable the table when no columns are named: then its columns are those {@code COPY …
   *     FROM STDIN} takes, all but the ingest time the server sets ({@link PgCopyOut#query})
   */
  record ToClient(
      String query,
      String source,
      PgCopyFormat format,
      boolean header,
      Optional<TableName> wholeTable)
      implements PgCopyStatement {
    public ToClient {
      requireNonNull(query, "query is null");
      requireNonNull(source, "source is null");
      requireNonNull(format, "format is null");
      requireNonNull(wholeTable, "wholeTable is null");
    }
  }

  /**
   * A COPY to or from the client that this server cannot run as written (an option it does not
   * support, a format it does not read, a malformed statement): answered with SQLSTATE 0A000 and
   * the way that works.
   */
  final class UnsupportedCopyException extends IllegalArgumentException {
    UnsupportedCopyException(String message) {
      super(message);
    }
  }
}

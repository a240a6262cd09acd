package dev.timelake.server;

import dev.timelake.CsvInput;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code COPY table [(columns)] FROM STDIN (FORMAT csv [, HEADER])}, as psql's {@code \copy} and
 * pgjdbc's CopyManager send it: the client's CopyData go to a CSV file in the lake's staging folder
 * (read with the columns of the statement or the table when the data has no header row), which is
 * appended as one commit. Only the CSV format is read; PostgreSQL's text format is refused with a
 * clear error.
 */
final class PgCopy {
  private final TableName table;
  private final List<String> columns;
  private final boolean header;

  /** The receiver of {@code copy}'s data. */
  PgCopy(PgCopyStatement.FromClient copy) {
    this.table = copy.table();
    this.columns = copy.columns();
    this.header = copy.header();
  }

  /** The table the data goes to. */
  TableName table() {
    return table;
  }

  /**
   * Receives the client's CopyData until CopyDone into a staging file and appends it as a write of
   * {@code session} (held until COMMIT inside a transaction); empty when the client sent CopyFail
   * (nothing is appended then).
   */
  Optional<QueryResult> receive(
      Lake lake, Session session, DataInputStream in, PgMessages.Writer out, long maxBytes)
      throws IOException {
    Table target = lake.table(table);
    List<String> names = columns.isEmpty() ? visibleColumns(target) : columns;
    out.begin('G').int8(0).int16(names.size());
    for (int i = 0; i < names.size(); i++) {
      out.int16(0);
    }
    out.end();
    out.flush();
    Path file = Files.createTempFile(lake.stagingDirectory(), "copy-", ".csv");
    try {
      long received = 0;
      try (OutputStream data = Files.newOutputStream(file)) {
        while (true) {
          PgMessages.Message message = PgMessages.read(in);
          if (message == null) {
            throw new IOException("the client went away during COPY");
          }
          if (message.type() == 'd') {
            received += message.body().length;
            // Past the limit the rest is read and dropped: the client is answered at CopyDone.
            if (received <= maxBytes) {
              data.write(message.body());
            }
          } else if (message.type() == 'c') {
            break;
          } else if (message.type() == 'f') {
            return Optional.empty();
          } else if (message.type() != 'H' && message.type() != 'S') {
            throw TimelakeException.validation(
                "Unexpected message '%s' during COPY into %s", message.type(), table);
          }
        }
      }
      if (received > maxBytes) {
        throw TimelakeException.validation(
            "COPY into %s sent %d bytes, more than the %d bytes one COPY may hold; nothing was"
                + " appended: split the data into several COPYs",
            table, received, maxBytes);
      }
      // Errors name the lines as the client sent them, never the staging file.
      CsvInput input = CsvInput.of(file).withDelimiter(",").describedAs("the COPY data");
      return Optional.of(session.copyFrom(table, header ? input : input.withColumns(names)));
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** The columns a COPY without a column list takes: all but the ingest time the server sets. */
  static List<String> visibleColumns(Table table) {
    return table.columns().stream()
        .map(dev.timelake.Column::name)
        .filter(name -> !table.ingestTimeColumn().map(name::equals).orElse(false))
        .toList();
  }
}

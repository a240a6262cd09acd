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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code COPY table [(columns)] FROM STDIN (FORMAT csv [, HEADER])}, as psql's {@code \copy} and
 * pgjdbc's CopyManager send it: the client's CopyData go to a CSV file in the lake's staging folder
 * (read with the columns of the statement or the table when the data has no header row), which is
 * appended as one commit. Only the CSV format is read; PostgreSQL's text format is refused with a
 * clear error.
 */
final class PgCopy {
  private static final Pattern COPY_FROM_STDIN =
      Pattern.compile(
          "(?is)\\s*COPY\\s+(\"?[\\w]+\"?(?:\\.\"?[\\w]+\"?)?)\\s*(?:\\(([^)]*)\\))?\\s+FROM\\s+STDIN\\b(.*)");

  private final TableName table;
  private final List<String> columns;
  private final boolean header;

  private PgCopy(TableName table, List<String> columns, boolean header) {
    this.table = table;
    this.columns = columns;
    this.header = header;
  }

  /**
   * The COPY that {@code sql} is, if it copies from the client into a table.
   *
   * @throws IllegalArgumentException for a format other than CSV
   */
  static Optional<PgCopy> parse(String sql) {
    Matcher copy = COPY_FROM_STDIN.matcher(sql);
    if (!copy.matches()) {
      return Optional.empty();
    }
    String options = copy.group(3).toLowerCase(Locale.ROOT);
    if (!options.matches("(?s).*\\bcsv\\b.*")) {
      throw new IllegalArgumentException(
          "COPY … FROM STDIN reads CSV only: add (FORMAT csv [, HEADER]), or CSV [HEADER] after"
              + " STDIN (psql: \\copy t FROM 'file.csv' CSV HEADER)");
    }
    if (options.matches("(?s).*\\b(delimiter|null|quote|escape|encoding)\\b.*")) {
      throw new IllegalArgumentException(
          "COPY … FROM STDIN takes comma-separated CSV with PostgreSQL's defaults only;"
              + " DELIMITER, NULL, QUOTE, ESCAPE and ENCODING options are not supported");
    }
    boolean header = options.matches("(?s).*\\bheader\\b(?!\\s*(=\\s*)?(false|off|0)\\b).*");
    List<String> columns = new ArrayList<>();
    if (copy.group(2) != null) {
      for (String column : copy.group(2).split(",")) {
        columns.add(column.strip().replace("\"", ""));
      }
    }
    return Optional.of(
        new PgCopy(TableName.parse(copy.group(1).replace("\"", "")), columns, header));
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

  private static List<String> visibleColumns(Table table) {
    return table.columns().stream()
        .map(dev.timelake.Column::name)
        .filter(name -> !table.ingestTimeColumn().map(name::equals).orElse(false))
        .toList();
  }
}

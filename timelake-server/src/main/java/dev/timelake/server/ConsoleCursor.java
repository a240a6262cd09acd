package dev.timelake.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.timelake.QueryResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A result the web console pages through: the rows go from the open result to a spool file as the
 * page asks for them, so that a million-row answer is never held in the page nor as Java values,
 * and any page already read can be shown again. (DuckDB holds the result itself until it is closed:
 * at the login's next query, logout, or after {@link ConsoleSessions#CURSOR_IDLE}.) The spool is
 * one JSON array per line; every {@link #PAGE}-th row's byte offset is kept to find a page without
 * reading the rows before it.
 */
final class ConsoleCursor implements AutoCloseable {
  /** Rows per page of the console's result table. */
  static final int PAGE = 100;

  /** At most this many rows are spooled; beyond them the answer says it was cut short. */
  static final long MAX_ROWS = 10_000_000;

  /** At most this many bytes are spooled. */
  static final long MAX_BYTES = 1L << 30;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final QueryResult result;
  private final List<String> columnNames;
  private final int columns;
  private final Path file;
  private final FileChannel spool;
  private final List<Long> pageStarts = new ArrayList<>();

  /** Rows spooled but not yet written to the file: written in large pieces, not row by row. */
  private final java.io.ByteArrayOutputStream pending = new java.io.ByteArrayOutputStream();

  private long bytes;
  private long rows;
  private boolean exhausted;
  private boolean cut;

  private ConsoleCursor(QueryResult result, Path file, FileChannel spool) {
    this.result = result;
    this.columnNames = List.copyOf(result.columnNames());
    this.columns = columnNames.size();
    this.file = file;
    this.spool = spool;
  }

  /** A cursor over {@code result}'s rows from its current position; it closes the result. */
  static ConsoleCursor over(QueryResult result) {
    try {
      Path file = Files.createTempFile("timelake-console-", ".rows");
      try {
        FileChannel spool =
            FileChannel.open(
                file,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE);
        return new ConsoleCursor(result, file, spool);
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(file);
        throw e;
      }
    } catch (IOException e) {
      result.close();
      throw new UncheckedIOException("Cannot make a spool file for the console's result", e);
    }
  }

  /**
   * Rows {@code offset} to {@code offset + limit} (fewer at the end), read on from the result as
   * needed, and one row beyond them, so that {@link #rowsRead()} tells whether more follow.
   */
  synchronized List<List<Object>> rows(long offset, int limit) throws IOException {
    readUntil(offset + limit + 1);
    flush();
    List<List<Object>> page = new ArrayList<>();
    long end = Math.min(rows, offset + limit);
    if (offset >= end) {
      return page;
    }
    long at = offset - offset % PAGE;
    long position = pageStarts.get((int) (offset / PAGE));
    ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    while (at < end) {
      buffer.clear();
      int read = spool.read(buffer, position);
      if (read <= 0) {
        throw new IOException("The console's spool of rows ended early at row " + at);
      }
      position += read;
      for (int i = 0; i < read && at < end; i++) {
        byte b = buffer.get(i);
        if (b != '\n') {
          line.write(b);
          continue;
        }
        if (at >= offset) {
          page.add(row(line.toByteArray()));
        }
        line.reset();
        at++;
      }
    }
    return page;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> row(byte[] json) throws IOException {
    return JSON.readValue(json, List.class);
  }

  /**
   * Writes every row of the result as CSV, as PostgreSQL's COPY writes it ({@link
   * PgCopyFormat#CSV}: a header of the column names, then the rows; NULL as nothing, an empty text
   * quoted), reading on to the end of the result; fails after the spool's limit when the result is
   * longer.
   */
  synchronized void writeCsv(java.io.OutputStream out) throws IOException {
    out.write(PgCopyFormat.CSV.line(columnNames));
    for (long offset = 0; ; offset += CSV_CHUNK) {
      List<List<Object>> rows = rows(offset, CSV_CHUNK);
      for (List<Object> row : rows) {
        out.write(PgCopyFormat.CSV.line(row.stream().map(ConsoleCursor::text).toList()));
      }
      if (rows.size() < CSV_CHUNK) {
        if (cut) {
          // A file that ends as if whole would mislead: the download fails instead.
          throw new IOException(
              "the result has more than " + MAX_ROWS + " rows (or 1 GiB): narrow the query");
        }
        return;
      }
    }
  }

  private static final int CSV_CHUNK = 10_000;

  private static String text(Object value) {
    return value == null ? null : value.toString();
  }

  /** Rows read from the result so far. */
  synchronized long rowsRead() {
    return rows;
  }

  /** True when every row of the result has been read (or the spool's limit cut it short). */
  synchronized boolean exhausted() {
    return exhausted;
  }

  /** True when the spool's limits cut the result short. */
  synchronized boolean cut() {
    return cut;
  }

  /** Reads on from the result until {@code wanted} rows are spooled or it has no more. */
  private void readUntil(long wanted) throws IOException {
    while (!exhausted && rows < wanted) {
      if (rows >= MAX_ROWS || bytes >= MAX_BYTES) {
        cut = result.next();
        exhausted = true;
        result.close();
        return;
      }
      if (!result.next()) {
        exhausted = true;
        result.close();
        return;
      }
      List<Object> row = new ArrayList<>(columns);
      for (int i = 0; i < columns; i++) {
        row.add(ConsoleJson.json(result.value(i)));
      }
      spool(row);
    }
  }

  private void spool(List<Object> row) throws IOException {
    if (rows % PAGE == 0) {
      pageStarts.add(bytes);
    }
    byte[] json = JSON.writeValueAsBytes(row);
    pending.write(json);
    pending.write('\n');
    bytes += json.length + 1;
    rows++;
    if (pending.size() >= 1 << 20) {
      flush();
    }
  }

  private void flush() throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(pending.toByteArray());
    long position = bytes - buffer.remaining();
    while (buffer.hasRemaining()) {
      position += spool.write(buffer, position);
    }
    pending.reset();
  }

  @Override
  public synchronized void close() {
    result.close();
    try {
      spool.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // DELETE_ON_CLOSE removed it, or the temporary folder is gone: nothing is left to do.
    }
  }
}

package dev.timelake.write;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * Reads a CSV file record by record as it lies in the file: the line each record starts on and its
 * fields, with {@code "} quoting ({@code ""} inside quotes is a quote) and quoted line breaks. It
 * reads the header row and, after DuckDB refused a file, finds the line to name; values are
 * DuckDB's to read. Lines with nothing on them are skipped, as DuckDB skips them. Not thread-safe.
 */
final class CsvRecords implements AutoCloseable {
  /** The delimiters found from a header row, most likely first. */
  private static final String CANDIDATES = ",;\t|";

  private final BufferedReader reader;
  private final char delimiter;
  private long line = 1;
  private int pending = -2;

  /** One record: the line it starts on (from 1) and its fields, unquoted. */
  record Record(long line, List<String> fields) {}

  private CsvRecords(BufferedReader reader, char delimiter) {
    this.reader = reader;
    this.delimiter = delimiter;
  }

  /** Opens {@code file}, gunzipped when its name ends in {@code .gz}. */
  static CsvRecords open(Path file, char delimiter) {
    try {
      InputStream in = Files.newInputStream(file);
      if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz")) {
        in = new GZIPInputStream(in);
      }
      return new CsvRecords(
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16),
          delimiter);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The delimiter of a file whose first line is {@code header}: the one of {@code , ; tab |} found
   * most often outside quotes, comma when there is none (a file of one column).
   */
  static char delimiterOf(String header) {
    int[] counts = new int[CANDIDATES.length()];
    boolean quoted = false;
    for (char c : header.toCharArray()) {
      if (c == '"') {
        quoted = !quoted;
      } else if (!quoted && CANDIDATES.indexOf(c) >= 0) {
        counts[CANDIDATES.indexOf(c)]++;
      }
    }
    int best = 0;
    for (int i = 1; i < counts.length; i++) {
      if (counts[i] > counts[best]) {
        best = i;
      }
    }
    return CANDIDATES.charAt(best);
  }

  /** The first line of {@code file} as text (without its line break), empty for an empty file. */
  static String firstLine(Path file) {
    try (CsvRecords records = open(file, ',')) {
      String first = records.reader.readLine();
      return first == null ? "" : first;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The next record, or empty at the end of the file. */
  Optional<Record> next() {
    try {
      List<String> fields = new ArrayList<>();
      StringBuilder field = new StringBuilder();
      boolean quoted = false;
      boolean any = false;
      long start = line;
      int c;
      while ((c = read()) != -1) {
        if (quoted) {
          if (c == '"' && peek() == '"') {
            read();
            field.append('"');
          } else if (c == '"') {
            quoted = false;
          } else {
            countLine(c);
            field.append((char) c);
          }
          continue;
        }
        if (c == '\r' || c == '\n') {
          countLine(c);
          if (any) {
            fields.add(field.toString());
            return Optional.of(new Record(start, fields));
          }
          start = line;
          continue;
        }
        any = true;
        if (c == '"') {
          quoted = true;
        } else if (c == delimiter) {
          fields.add(field.toString());
          field.setLength(0);
        } else {
          field.append((char) c);
        }
      }
      if (!any) {
        return Optional.empty();
      }
      fields.add(field.toString());
      return Optional.of(new Record(start, fields));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Counts a line break, {@code \r\n} once. */
  private void countLine(int c) throws IOException {
    if (c == '\n' || (c == '\r' && peek() != '\n')) {
      line++;
    }
  }

  private int read() throws IOException {
    if (pending != -2) {
      int c = pending;
      pending = -2;
      return c;
    }
    return reader.read();
  }

  private int peek() throws IOException {
    if (pending == -2) {
      pending = reader.read();
    }
    return pending;
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

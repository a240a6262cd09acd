package dev.timelake.write;

import dev.timelake.CsvInput;
import dev.timelake.engine.SqlText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How a CSV input lies: its delimiter, whether it has rows, the {@code read_csv} call that reads it
 * and, when DuckDB refused it, the line to name. The delimiter is decided here rather than by
 * DuckDB's sniffer, which on a file with a ragged row picks another dialect or skips lines (a short
 * row made it skip the three above it) instead of failing; lines are never skipped.
 */
final class CsvLayout {
  private final CsvInput input;
  private final char delimiter;

  private CsvLayout(CsvInput input, char delimiter) {
    this.input = input;
    this.delimiter = delimiter;
  }

  /** The layout of {@code input}, its delimiter given, by a {@code .tsv} name, or found. */
  static CsvLayout of(CsvInput input) {
    if (input.delimiter().isPresent()) {
      return new CsvLayout(input, input.delimiter().get().charAt(0));
    }
    String name = input.file().getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".tsv") || name.endsWith(".tsv.gz")) {
      return new CsvLayout(input, '\t');
    }
    return new CsvLayout(input, CsvRecords.delimiterOf(CsvRecords.firstLine(input.file())));
  }

  /** True when the file holds a row of data (not only a header row, or nothing). */
  boolean hasRows() {
    try (CsvRecords records = CsvRecords.open(input.file(), delimiter)) {
      if (input.columns().isEmpty() && records.next().isEmpty()) {
        return false;
      }
      return records.next().isPresent();
    }
  }

  /**
   * The {@code read_csv} call reading the file: every column as text when {@code types} is empty,
   * otherwise with the given DuckDB types by column name.
   */
  String relation(Map<String, String> types) {
    StringBuilder sql =
        new StringBuilder("read_csv(")
            .append(SqlText.literal(path()))
            .append(", header = ")
            .append(input.columns().isEmpty())
            .append(", skip = 0, delim = ")
            .append(SqlText.literal(String.valueOf(delimiter)))
            // RFC 4180's and PostgreSQL's quote, given: left to the sniffer, a file with an
            // unterminated quote is read with the quote as data instead of refused.
            .append(", quote = '\"'");
    input.columns().ifPresent(names -> sql.append(", names = ").append(SqlText.literalList(names)));
    if (types.isEmpty()) {
      return sql.append(", all_varchar = true)").toString();
    }
    List<String> typed = new ArrayList<>();
    types.forEach(
        (column, type) -> typed.add(SqlText.literal(column) + ": " + SqlText.literal(type)));
    return sql.append(", types = {").append(String.join(", ", typed)).append("})").toString();
  }

  /**
   * The first line whose number of fields differs from the header row's (or the given columns'),
   * described for a message, e.g. {@code line 4 has 2 fields, expected 3 like the header row}.
   */
  Optional<String> firstRaggedLine() {
    try (CsvRecords records = CsvRecords.open(input.file(), delimiter)) {
      int expected;
      if (input.columns().isPresent()) {
        expected = input.columns().get().size();
      } else {
        Optional<CsvRecords.Record> header = records.next();
        if (header.isEmpty()) {
          return Optional.empty();
        }
        expected = header.get().fields().size();
      }
      for (Optional<CsvRecords.Record> next = records.next();
          next.isPresent();
          next = records.next()) {
        int found = next.get().fields().size();
        if (found != expected) {
          return Optional.of(
              String.format(
                  "line %d has %d %s, expected %d like %s (delimiter %s); quote values that hold"
                      + " the delimiter",
                  next.get().line(),
                  found,
                  found == 1 ? "field" : "fields",
                  expected,
                  input.columns().isPresent() ? "the columns given" : "the header row",
                  delimiterName()));
        }
      }
      return Optional.empty();
    }
  }

  /** The line of the file where data row {@code row} (from 1) starts. */
  long lineOfRow(long row) {
    try (CsvRecords records = CsvRecords.open(input.file(), delimiter)) {
      long skip = row - 1 + (input.columns().isEmpty() ? 1 : 0);
      for (long i = 0; i < skip; i++) {
        if (records.next().isEmpty()) {
          return row;
        }
      }
      return records.next().map(CsvRecords.Record::line).orElse(row);
    }
  }

  /** DuckDB's message with the file's path replaced by how the input is described. */
  String withoutPath(String message) {
    return message.replace(path(), input.description());
  }

  private String delimiterName() {
    return delimiter == '\t' ? "tab" : "'" + delimiter + "'";
  }

  private String path() {
    Path absolute = input.file().toAbsolutePath();
    return absolute.toString();
  }
}

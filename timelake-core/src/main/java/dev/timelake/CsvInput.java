package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A CSV file to append, plain or gzipped, whose values are typed by the table's columns.
 *
 * <p>The file's first line names its columns unless {@link #columns} gives them (a file without a
 * header row, what a PostgreSQL client's {@code COPY … FROM STDIN} sends without {@code HEADER}).
 * Without a {@link #delimiter}, it is the one of {@code ,} {@code ;} tab {@code |} that the first
 * line holds most often (comma when it holds none); quotes are found by DuckDB's sniffer. Messages
 * name the file by {@link #description} and its lines as they are numbered in the file, line 1
 * being the header row when there is one.
 *
 * <pre>{@code
 * table.newAppend().fromCsv(CsvInput.of(Path.of("readings.csv")).withDelimiter(";")).commit();
 * }</pre>
 *
 * @param file the file
 * @param delimiter the field delimiter, one character; empty to find it from the first line
 * @param columns the column names of a file without a header row; empty when it has one
 * @param description how messages name the file, e.g. its path or {@code COPY data}
 */
public record CsvInput(
    Path file, Optional<String> delimiter, Optional<List<String>> columns, String description) {
  public CsvInput {
    requireNonNull(file, "file is null");
    requireNonNull(delimiter, "delimiter is null");
    requireNonNull(columns, "columns is null");
    requireNonNull(description, "description is null");
    delimiter.ifPresent(CsvInput::checkDelimiter);
    columns = columns.map(List::copyOf);
  }

  /** A file with a header row, its delimiter found from it, named by its path in messages. */
  public static CsvInput of(Path file) {
    return new CsvInput(file, Optional.empty(), Optional.empty(), file.toString());
  }

  /** This input with {@code delimiter} (one character, e.g. {@code ;} or a tab). */
  public CsvInput withDelimiter(String delimiter) {
    return new CsvInput(file, Optional.of(delimiter), columns, description);
  }

  /** This input as a file without a header row whose fields are {@code names}, in order. */
  public CsvInput withColumns(List<String> names) {
    return new CsvInput(file, delimiter, Optional.of(names), description);
  }

  /** This input named {@code description} in messages instead of by its path. */
  public CsvInput describedAs(String description) {
    return new CsvInput(file, delimiter, columns, description);
  }

  static void checkDelimiter(String delimiter) {
    if (delimiter.length() != 1 || "\"\r\n".contains(delimiter)) {
      throw TimelakeException.validation(
          "Invalid CSV delimiter '%s': give one character other than a quote or a line break,"
              + " e.g. ';', '|' or a tab",
          delimiter);
    }
  }
}

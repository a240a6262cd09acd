package dev.timelake.write;

import static java.util.Objects.requireNonNull;

import dev.timelake.CsvInput;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.ipc.ArrowReader;

/** One input of an append. Sources are staged in the order they were added. */
public sealed interface AppendSource {
  /** A short description for messages and progress, e.g. the file name. */
  String describe();

  /**
   * Parquet files, read with DuckDB; an integer time column counts {@code epochUnit}s since
   * 1970-01-01 UTC when one is given.
   */
  record ParquetFiles(List<Path> files, Optional<ChronoUnit> epochUnit) implements AppendSource {
    public ParquetFiles {
      files = List.copyOf(files);
      requireNonNull(epochUnit, "epochUnit is null");
    }

    public ParquetFiles(List<Path> files) {
      this(files, Optional.empty());
    }

    @Override
    public String describe() {
      return files.size() == 1 ? files.get(0).toString() : files.size() + " Parquet files";
    }
  }

  /**
   * One CSV or TSV file, optionally gzipped; types come from the table. An integer time column
   * counts {@code epochUnit}s since 1970-01-01 UTC when one is given.
   */
  record CsvFile(CsvInput input, Optional<ChronoUnit> epochUnit) implements AppendSource {
    public CsvFile {
      requireNonNull(input, "input is null");
      requireNonNull(epochUnit, "epochUnit is null");
    }

    public CsvFile(CsvInput input) {
      this(input, Optional.empty());
    }

    @Override
    public String describe() {
      return input.description();
    }
  }

  /**
   * An Arrow stream, consumed by the append; its values converted as {@code casting} allows. Also
   * how a SQL session hands the rows of an INSERT, computed on the client's connection, to the
   * connection that stages them ({@code description} then says "VALUES" or "query").
   */
  record ArrowStream(ArrowReader reader, Casting casting, String description)
      implements AppendSource {
    public ArrowStream {
      requireNonNull(reader, "reader is null");
      requireNonNull(casting, "casting is null");
      requireNonNull(description, "description is null");
    }

    public ArrowStream(ArrowReader reader) {
      this(reader, Casting.LOSSLESS, "Arrow input");
    }

    @Override
    public String describe() {
      return description;
    }
  }

  /**
   * The rows of a DuckDB query run on the appending connection. With {@link Casting#LITERALS} (SQL
   * {@code INSERT … VALUES}) values are cast to the column types as SQL casts literals, so {@code
   * '2026-01-01 10:00'} fills a TIMESTAMPTZ column; otherwise only lossless widening.
   */
  record Query(String sql, Casting casting) implements AppendSource {
    public Query {
      requireNonNull(sql, "sql is null");
      requireNonNull(casting, "casting is null");
    }

    public Query(String sql) {
      this(sql, Casting.LOSSLESS);
    }

    @Override
    public String describe() {
      return casting == Casting.LITERALS ? "VALUES" : "query";
    }
  }

  /** How input values may be converted to column types. */
  enum Casting {
    /** Only equal types or lossless widening (INTEGER to BIGINT, FLOAT to DOUBLE). */
    LOSSLESS,
    /**
     * SQL's assignment casts, as INSERT … SELECT applies them: also any number into any numeric
     * column, as long as every value arrives unchanged (checked row by row).
     */
    ASSIGNMENT,
    /**
     * Any cast DuckDB performs, for literal values typed by the user; numbers into numeric columns
     * are checked as for {@link #ASSIGNMENT}.
     */
    LITERALS,
    /**
     * Any cast, unchecked: rows Timelake computes itself (rollup refreshes), whose types it chose
     * for the table they go into.
     */
    INTERNAL
  }

  /** Rows given in Java, as values in column order of {@code columns}. */
  record Rows(List<String> columns, List<List<Object>> rows) implements AppendSource {
    public Rows {
      columns = List.copyOf(columns);
      rows = List.copyOf(rows);
    }

    @Override
    public String describe() {
      return "rows";
    }
  }
}

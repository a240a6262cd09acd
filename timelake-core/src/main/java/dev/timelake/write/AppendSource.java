package dev.timelake.write;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;

/** One input of an append. Sources are staged in the order they were added. */
public sealed interface AppendSource {
  /** A short description for messages and progress, e.g. the file name. */
  String describe();

  /** Parquet files, read with DuckDB. */
  record ParquetFiles(List<Path> files) implements AppendSource {
    public ParquetFiles {
      files = List.copyOf(files);
    }

    @Override
    public String describe() {
      return files.size() == 1 ? files.get(0).toString() : files.size() + " Parquet files";
    }
  }

  /** One CSV or TSV file with a header row, optionally gzipped; types come from the table. */
  record CsvFile(Path file) implements AppendSource {
    public CsvFile {
      requireNonNull(file, "file is null");
    }

    @Override
    public String describe() {
      return file.toString();
    }
  }

  /** An Arrow stream; consumed by the append. */
  record ArrowStream(ArrowReader reader) implements AppendSource {
    public ArrowStream {
      requireNonNull(reader, "reader is null");
    }

    @Override
    public String describe() {
      return "Arrow input";
    }
  }

  /** The rows of a DuckDB query run on the appending connection. */
  record Query(String sql) implements AppendSource {
    public Query {
      requireNonNull(sql, "sql is null");
    }

    @Override
    public String describe() {
      return "query";
    }
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

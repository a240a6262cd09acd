package dev.timelake.bench;

import dev.timelake.ErrorCode;
import dev.timelake.Table;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.Catalogs;
import dev.timelake.engine.SqlText;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The data files of a table's current snapshot, as Iceberg lists them, for reading with plain
 * DuckDB; plus the columns that identify a row, for removing copies.
 *
 * @param files local paths, sorted
 * @param seriesKey the table's series key
 * @param timeColumn the time column (empty text for a plain table)
 * @param ingestTimeColumn the insertion-time column (empty text when the table has none)
 */
record DataFiles(
    List<String> files, List<String> seriesKey, String timeColumn, String ingestTimeColumn) {
  DataFiles {
    files = List.copyOf(files);
    seriesKey = List.copyOf(seriesKey);
  }

  /** Lists the files of {@code table} in the embedded catalog of {@code warehouse}. */
  static DataFiles of(Path warehouse, Table table) {
    Catalog catalog = Catalogs.openEmbedded(warehouse);
    List<String> files = new ArrayList<>();
    try {
      org.apache.iceberg.Table iceberg =
          catalog.loadTable(TableIdentifier.of(table.name().namespace(), table.name().name()));
      if (iceberg.currentSnapshot() != null) {
        try (CloseableIterable<FileScanTask> tasks = iceberg.newScan().planFiles()) {
          for (FileScanTask task : tasks) {
            files.add(SqlText.localPath(task.file().location()));
          }
        }
      }
    } catch (IOException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot list the files of " + table + ": " + e.getMessage(), e);
    } finally {
      close(catalog);
    }
    if (files.isEmpty()) {
      throw TimelakeException.validation("Cannot benchmark %s: it holds no data files", table);
    }
    files.sort(null);
    return new DataFiles(
        files,
        table.seriesKey(),
        table.timeColumn().orElse(""),
        table.ingestTimeColumn().orElse(""));
  }

  /** {@code read_parquet([...])} over the files. */
  String readParquet() {
    return "read_parquet(" + SqlText.literalList(files) + ")";
  }

  private static void close(Catalog catalog) {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        throw new TimelakeException(
            ErrorCode.INTERNAL, "Cannot close the catalog: " + e.getMessage(), e);
      }
    }
  }
}

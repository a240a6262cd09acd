package dev.timelake.cli;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TimelakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Appends files to a table in one commit. */
@Command(
    name = "import",
    sortOptions = false,
    description = {
      "Appends Parquet, CSV, TSV or gzipped CSV files to a table.",
      "CSV and TSV files need a header row. All files are one append: one commit, or nothing when"
          + " any file is invalid."
    },
    footer = {
      "%nExample:",
      "  timelake import iot.readings readings-10h.csv readings-11h.csv.gz \\",
      "      --batch-id gateway-7/2026-01-01T10"
    })
final class ImportCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Parameters(
      index = "1..*",
      arity = "1..*",
      paramLabel = "FILE",
      description = "Files to append: .parquet, .csv, .tsv, .csv.gz.")
  private List<Path> files;

  @Option(
      names = "--batch-id",
      paramLabel = "ID",
      description = "Makes the import idempotent: a batch id already committed is skipped.")
  private String batchId;

  @Override
  int run() {
    for (Path file : files) {
      if (!Files.isRegularFile(file)) {
        throw TimelakeException.notFound(
            "Cannot import %s into %s: the file does not exist", file, table);
      }
    }
    try (Lake lake = main.openLake()) {
      Table target = lake.table(table);
      Append append = target.newAppend();
      files.forEach(append::fromFile);
      if (batchId != null) {
        append.batchId(batchId);
      }
      Progress progress = main.streams().interactive() ? new Progress(err()) : null;
      if (progress != null) {
        append.progress(progress::show);
      }
      AppendResult result;
      try {
        result = append.commit();
      } finally {
        if (progress != null) {
          progress.clear();
        }
      }
      report(target, result);
    }
    return 0;
  }

  private void report(Table target, AppendResult result) {
    switch (result.outcome()) {
      case SKIPPED_DUPLICATE_BATCH ->
          out().println("Skipped: batch " + batchId + " was already committed to " + target.name());
      case EMPTY -> out().println("Nothing imported into " + target.name() + ": no rows");
      case COMMITTED ->
          out()
              .println(
                  "Imported "
                      + count(result.rows(), "row", "rows")
                      + " into "
                      + target.name()
                      + ": "
                      + count(result.copiesDropped(), "copy", "copies")
                      + " dropped, "
                      + count(result.files(), "file", "files")
                      + " written, snapshot "
                      + result.snapshotId().orElseThrow());
    }
  }

  private static String count(long count, String one, String many) {
    return count + " " + (count == 1 ? one : many);
  }
}

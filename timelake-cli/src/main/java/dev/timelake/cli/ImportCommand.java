package dev.timelake.cli;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Appends files to a table in one commit. */
@Command(
    name = "import",
    sortOptions = false,
    description = {
      "Appends Parquet, CSV, TSV or gzipped CSV files to a table.",
      "CSV and TSV files need a header row naming the table's columns; values take the table's"
          + " types. The delimiter is the one of , ; tab | the header row holds most (tab for"
          + " .tsv), or --delimiter; DuckDB finds the quotes. Empty files import no rows; a line"
          + " with too few or too many fields is refused naming it.",
      "Conversions that lose nothing are made: integers into BIGINT, DOUBLE or FLOAT columns"
          + " (DOUBLE and FLOAT only when every value is exact there: up to 2^53 and 2^24),"
          + " FLOAT into DOUBLE, TIMESTAMP into TIMESTAMPTZ (read as UTC). Integers for the time"
          + " column need --time-format.",
      "All files are one append: one commit, or nothing when any file is invalid."
    },
    footer = {
      "%nExample:",
      "  timelake import iot.readings readings-10h.csv readings-11h.csv.gz \\",
      "      --batch-id gateway-7/2026-01-01T10",
      "  timelake import iot.readings export.csv --delimiter ';' --time-format epoch-ms"
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

  @Option(
      names = "--time-format",
      paramLabel = "FORMAT",
      description =
          "Reads an integer time column as a count since 1970-01-01T00:00:00Z: epoch-s, epoch-ms,"
              + " epoch-us or epoch-ns (nanoseconds must be whole microseconds).")
  private EpochFormat timeFormat;

  @Option(
      names = "--delimiter",
      paramLabel = "CHAR",
      description =
          "The CSV delimiter, one character ('tab' or '\\t' for a tab), instead of finding it from"
              + " the header row.")
  private String delimiter;

  /** The values of --time-format and the units they count. */
  enum EpochFormat {
    EPOCH_S(ChronoUnit.SECONDS),
    EPOCH_MS(ChronoUnit.MILLIS),
    EPOCH_US(ChronoUnit.MICROS),
    EPOCH_NS(ChronoUnit.NANOS);

    private final ChronoUnit unit;

    EpochFormat(ChronoUnit unit) {
      this.unit = unit;
    }

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

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
      if (timeFormat != null) {
        append.timeFromEpoch(timeFormat.unit);
      }
      if (delimiter != null) {
        append.csvDelimiter(
            delimiter.equalsIgnoreCase("tab") || delimiter.equals("\\t") ? "\t" : delimiter);
      }
      ImportProgress progress =
          main.streams().interactive() ? new ImportProgress(new Progress(err()), sizes()) : null;
      if (progress != null) {
        append.progress(progress::step);
        append.onSourceRead(progress::read);
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
      case EMPTY ->
          out()
              .println(
                  "Nothing imported into "
                      + target.name()
                      + ": "
                      + (files.size() == 1 ? files.get(0) + " holds" : "the files hold")
                      + " no rows");
      case COMMITTED ->
          out()
              .println(
                  "Imported "
                      + count(result.rows(), "row", "rows")
                      + " into "
                      + target.name()
                      + ("upsert".equals(target.settings().get("write-policy"))
                          ? " as upserts (the table's write-policy)"
                          : "")
                      + ": "
                      + count(result.copiesDropped(), "copy", "copies")
                      + " dropped, "
                      + count(result.files(), "file", "files")
                      + " written, snapshot "
                      + result.snapshotId().orElseThrow()
                      + late(result));
    }
  }

  /**
   * The rows that may replace stored ones. Only rows not newer than what their partition held can
   * share a key with a stored row; which of them do is not counted, as that means reading the
   * stored data.
   */
  private static String late(AppendResult result) {
    return result.lateRows() == 0
        ? ""
        : " ("
            + count(result.lateRows(), "row is", "rows are")
            + " not newer than stored data: each replaces a stored row with the same key, if there"
            + " is one)";
  }

  private List<Long> sizes() {
    return files.stream()
        .map(
            file -> {
              try {
                return Files.size(file);
              } catch (IOException e) {
                return 0L;
              }
            })
        .toList();
  }

  private static String count(long count, String one, String many) {
    return String.format(Locale.ROOT, "%,d %s", count, count == 1 ? one : many);
  }
}

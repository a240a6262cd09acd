package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.Maintenance;
import dev.timelake.MaintenanceReport;
import dev.timelake.TableName;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Runs maintenance on one table or every table. */
@Command(
    name = "maintain",
    description = {
      "Compacts, applies retention, expires snapshots and deletes orphan files.",
      "Every partition with more than one file is rewritten into sorted, duplicate-free files;"
          + " partitions older than the table's retention are dropped; snapshots older than"
          + " snapshot-retention (beyond min-snapshots) expire. Without TABLE, every table."
    },
    footer = {"%nExamples:", "  timelake maintain iot.readings --dry-run", "  timelake maintain"})
final class MaintainCommand extends LakeCommand {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "TABLE",
      description = "The table (namespace.table); all tables when omitted.")
  private String table;

  @Option(names = "--dry-run", description = "Print what would be done; change nothing.")
  private boolean dryRun;

  @Option(
      names = "--inline-only",
      description = "Only what inline maintenance after an append would do (thresholds).")
  private boolean inlineOnly;

  @Override
  int run() {
    try (Lake lake = main.openLake()) {
      List<TableName> names = table == null ? lake.tables() : List.of(TableName.parse(table));
      for (TableName name : names) {
        Maintenance maintenance = lake.table(name).newMaintenance();
        if (inlineOnly) {
          maintenance.inlineOnly();
        }
        if (dryRun) {
          maintenance.dryRun().forEach(line -> out().println(name + ": " + line));
          continue;
        }
        Progress progress = main.streams().interactive() ? new Progress(err()) : null;
        if (progress != null) {
          maintenance.progress(progress::show);
        }
        MaintenanceReport report = maintenance.run();
        if (progress != null) {
          progress.clear();
        }
        print(report);
      }
    }
    return 0;
  }

  private void print(MaintenanceReport report) {
    out()
        .printf(
            "%s: files %d -> %d, bytes %d -> %d, partitions rewritten %d, dropped %d,"
                + " snapshots expired %d, orphan files deleted %d, %d ms%n",
            report.table(),
            report.filesBefore(),
            report.filesAfter(),
            report.bytesBefore(),
            report.bytesAfter(),
            report.partitionsRewritten(),
            report.partitionsDropped(),
            report.snapshotsExpired(),
            report.orphanFilesDeleted(),
            report.took().toMillis());
  }
}

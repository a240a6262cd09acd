package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.RefreshReport;
import dev.timelake.RollupCreation;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Creates a rollup and fills it. */
@Command(
    name = "create",
    description = {
      "Creates a materialized rollup and fills it with a first refresh (computed from the table's"
          + " other rollups where they are up to date).",
      "The query groups by series-key columns and one bucket of the time column (time_bucket,"
          + " date_bin or date_trunc with a fixed width), with aggregates count(*), count(x), sum,"
          + " min, max, avg, first_value and last_value ordered by time."
    },
    footer = {
      "%nExample:",
      "  timelake rollup create iot.readings_1m --as \"SELECT device, time_bucket(INTERVAL '1"
          + " minute', time) AS bucket, avg(value), min(value), max(value), count(*) FROM"
          + " iot.readings GROUP BY device, bucket\" --with retention=2y --with refresh_interval=5m"
    })
final class RollupCreateCommand extends RollupSubcommand {
  @Parameters(index = "0", paramLabel = "ROLLUP", description = "The rollup (namespace.name).")
  private String name;

  @Option(
      names = "--as",
      required = true,
      paramLabel = "SELECT",
      description = "The rollup's query: SELECT keys…, bucket, aggregates… FROM raw GROUP BY ….")
  private String select;

  @Option(
      names = "--with",
      paramLabel = "KEY=VALUE",
      description =
          "A setting of the rollup table (retention, chunk_interval, refresh_interval, …);"
              + " repeatable.")
  private List<String> options = new ArrayList<>();

  @Option(names = "--if-not-exists", description = "Do nothing when the rollup exists.")
  private boolean ifNotExists;

  @Override
  int run() {
    try (Lake lake = main().openLake()) {
      RollupCreation creation = lake.newRollup(name).as(select);
      for (String option : options) {
        int equals = option.indexOf('=');
        if (equals <= 0) {
          throw TimelakeException.validation(
              "Cannot create rollup %s: --with %s is not KEY=VALUE", name, option);
        }
        creation.option(option.substring(0, equals).strip(), option.substring(equals + 1).strip());
      }
      if (ifNotExists) {
        creation.ifNotExists();
      }
      Progress progress = main().streams().interactive() ? new Progress(err()) : null;
      if (progress != null) {
        creation.progress(progress::show);
      }
      Optional<RefreshReport> report = creation.create();
      if (progress != null) {
        progress.clear();
      }
      out()
          .println(
              report
                  .map(
                      r ->
                          "Created rollup "
                              + name
                              + " ("
                              + r.rowsWritten()
                              + " rows, "
                              + r.took().toMillis()
                              + " ms)")
                  .orElse("Rollup " + name + " already exists"));
    }
    return 0;
  }
}

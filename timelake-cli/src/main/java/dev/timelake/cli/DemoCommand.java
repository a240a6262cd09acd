package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.MaintenanceReport;
import dev.timelake.QueryResult;
import dev.timelake.RollupRoute;
import dev.timelake.Session;
import dev.timelake.iiot.GenerationResult;
import dev.timelake.iiot.IiotGenerator;
import dev.timelake.iiot.Scale;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Builds a small IIoT warehouse and runs example queries, with timings. */
@Command(
    name = "demo",
    description = {
      "Builds a small IIoT plant in the warehouse and runs example queries with timings.",
      "20 tags on 4 machines send readings every 2–10 s, appended once per simulated hour, with"
          + " late readings (store-and-forward) and resent copies. The demo then shows dedup on"
          + " read, the newest reading per tag, a rollup that answers hourly queries, and"
          + " maintenance. Running it again reuses the hours already loaded."
    },
    footer = {
      "%nExamples:",
      "  timelake demo",
      "  timelake --warehouse /tmp/plant demo --hours 48"
    })
final class DemoCommand extends LakeCommand {
  @Mixin private SessionSettingOptions sessionSettings;

  @Option(
      names = "--hours",
      paramLabel = "N",
      description = "Simulated hours to load (default ${DEFAULT-VALUE}; the tiny scale has 48).")
  private int hours = 24;

  @Option(names = "--seed", paramLabel = "N", description = "Data seed (default ${DEFAULT-VALUE}).")
  private long seed = 42;

  @Override
  int run() {
    try (Lake lake = main.openLake(sessionSettings.settings)) {
      out().println("Timelake demo: " + lake.description());
      long started = System.nanoTime();
      GenerationResult generated =
          IiotGenerator.builder()
              .scale(Scale.TINY)
              .seed(seed)
              .hours(hours)
              .progress(this::progress)
              .build()
              .generate(lake);
      clearProgress();
      out()
          .printf(
              "Loaded %,d readings in %d hourly appends (%.1f s, %,.0f readings/s)%n%n",
              generated.readings(),
              generated.hoursAppended(),
              (System.nanoTime() - started) / 1e9,
              generated.readingsPerSecond());
      try (Session session = main.openSession(lake, sessionSettings.settings)) {
        for (Example example : examples()) {
          run(session, example);
        }
        MaintenanceReport report = lake.table("iiot.readings").newMaintenance().run();
        out()
            .printf(
                "-- maintain iiot.readings: files %d -> %d in %d ms (sorted, copies removed)%n%n",
                report.filesBefore(), report.filesAfter(), report.took().toMillis());
        run(
            session,
            new Example("The same hourly query after maintenance", examples().get(4).sql()));
      }
    }
    out().println("Next: timelake sql   (an interactive shell on this warehouse)");
    out()
        .println(
            "  or: TIMELAKE_PASSWORD=secret timelake serve   (then open the web console it prints,"
                + " log in with any name and that password, and chart the readings)");
    return 0;
  }

  private record Example(String title, String sql) {}

  private static List<Example> examples() {
    return List.of(
        new Example("Tables in the warehouse", "SHOW TABLES"),
        new Example(
            "Readings per line, copies removed on read",
            "SELECT t.line, count(*) AS readings, round(avg(r.value), 2) AS avg_value"
                + " FROM iiot.readings r JOIN iiot.tags t USING (tag) GROUP BY ALL ORDER BY 1"),
        new Example(
            "Late data: readings that arrived more than an hour after they were taken",
            "SELECT count(*) AS late_readings, round(max(epoch(_ingest_ts) - epoch(time)) / 3600, 1)"
                + " AS max_delay_hours FROM iiot.readings"
                + " WHERE epoch_us(_ingest_ts) - epoch_us(time) > 3600000000"),
        new Example(
            "The newest reading of each tag of machine M01 of line L01",
            "SELECT tag, time, value FROM iiot.readings WHERE tag LIKE 'L01-M01-%'"
                + " QUALIFY row_number() OVER (PARTITION BY tag ORDER BY time DESC) = 1"
                + " ORDER BY tag"),
        new Example(
            "Hourly statistics of one tag (answered from the rollup where it can)",
            "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS hour, avg(value) AS avg_value,"
                + " min(value) AS min_value, max(value) AS max_value, count(*) AS n"
                + " FROM iiot.readings WHERE tag = 'L01-M01-T1' GROUP BY tag, hour"
                + " ORDER BY hour LIMIT 6"),
        new Example(
            "An hourly rollup, refreshed incrementally as data lands",
            "CREATE MATERIALIZED ROLLUP IF NOT EXISTS iiot.readings_1h AS SELECT tag,"
                + " time_bucket(INTERVAL '1 hour', time) AS bucket, avg(value) AS avg_value,"
                + " min(value) AS min_value, max(value) AS max_value, count(*) AS n"
                + " FROM iiot.readings GROUP BY tag, bucket"),
        new Example(
            "Hourly statistics again: now routed to the rollup, same answer",
            "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS hour, avg(value) AS avg_value,"
                + " min(value) AS min_value, max(value) AS max_value, count(*) AS n"
                + " FROM iiot.readings WHERE tag = 'L01-M01-T1' GROUP BY tag, hour"
                + " ORDER BY hour LIMIT 6"));
  }

  private void run(Session session, Example example) {
    out().println("-- " + example.title());
    out().println(example.sql() + ";");
    long started = System.nanoTime();
    try (QueryResult result = session.sql(example.sql())) {
      if (result.hasRows()) {
        StatementRunner.print(result, OutputFormat.TABLE.printer(out()));
      } else {
        out().println(result.message());
      }
      long millis = (System.nanoTime() - started) / 1_000_000;
      for (RollupRoute route : result.routes()) {
        out()
            .println(
                route.isRouted()
                    ? "   (answered from rollup "
                        + String.join(", ", route.rollups().stream().map(Object::toString).toList())
                        + ")"
                    : "   (not routed: " + route.reason().orElse("") + ")");
      }
      out().printf("   %d ms%n%n", millis);
    }
  }

  private void progress(String message) {
    if (main.streams().interactive()) {
      err().print("\r" + message + "\033[K");
      err().flush();
    }
  }

  private void clearProgress() {
    if (main.streams().interactive()) {
      err().print("\r\033[K");
      err().flush();
    }
  }
}

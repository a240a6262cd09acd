package dev.timelake.bench;

import dev.timelake.AppendResult;
import dev.timelake.Lake;
import dev.timelake.MaintenanceReport;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.Table;
import dev.timelake.TimelakeException;
import dev.timelake.iiot.IiotGenerator;
import dev.timelake.iiot.PlantSql;
import dev.timelake.iiot.Scale;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The loading and maintenance figures: creating and refreshing the rollups, one more hourly append,
 * maintenance. Each operation is timed; one the lake rejects is reported as not supported yet, with
 * the lake's message, and the run goes on.
 */
final class LakeOperations {
  /** The rollups the routed configuration uses, by bucket width. */
  static final String MINUTE_ROLLUP = "iiot.readings_1m";

  static final String HOURLY_ROLLUP = "iiot.readings_1h";
  static final String DAILY_ROLLUP = "iiot.readings_1d";

  private static final String STATISTICS =
      "avg(value) AS avg_value, min(value) AS min_value, max(value) AS max_value,"
          + " sum(value) AS sum_value, count(*) AS n";

  /** What M4 needs: each bucket's first and last value (their reading times come with them). */
  private static final String FIRST_AND_LAST =
      ", first_value(value ORDER BY time) AS first_v, last_value(value ORDER BY time) AS last_v";

  /**
   * What the signal queries need from the hourly rollup: M4 points and time-weighted states (a day
   * of an hourly rollup holds hundreds of readings a row, well above the 32 states pay from).
   */
  private static final String SIGNALS =
      ", m4(time, value) AS points, time_weighted_state(time, value) AS tw, gap_count(time, 300),"
          + " percentile_sketch(value) AS sketch";

  private static final String APPEND = "hourly append (one more hour)";

  private static final DateTimeFormatter HOUR_LABEL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Lake lake;

  LakeOperations(Lake lake) {
    this.lake = lake;
  }

  /**
   * Creates the 1-minute, hourly and daily rollups, timing each; the daily one twice, without and
   * with the 1-minute rollup present, and between them runs {@code fromMinuteRollup} (daily
   * statistics) while the 1-minute rollup is the only one. The 1-minute and hourly rollups keep
   * first and last values, so the hourly one (M4) is computed from the 1-minute one. Rollups left
   * by an earlier run are dropped first. Inline refresh is off, so that the append measured later
   * is only an append and the refresh is measured on its own.
   */
  List<OperationFigure> createRollups(Optional<BenchmarkQuery> fromMinuteRollup) {
    for (String rollup : List.of(DAILY_ROLLUP, HOURLY_ROLLUP, MINUTE_ROLLUP)) {
      sql("DROP MATERIALIZED ROLLUP IF EXISTS " + rollup);
    }
    OperationFigure dailyAlone =
        timed(
            "create daily rollup (no 1-minute rollup present)",
            () -> create(DAILY_ROLLUP, "1 day", ""));
    OperationFigure minute =
        timed(
            "create 1-minute rollup (with first and last)",
            () -> create(MINUTE_ROLLUP, "1 minute", FIRST_AND_LAST));
    if (dailyAlone.took().isPresent()) {
      sql("DROP MATERIALIZED ROLLUP IF EXISTS " + DAILY_ROLLUP);
    }
    List<OperationFigure> figures = new ArrayList<>(List.of(dailyAlone, minute));
    fromMinuteRollup.ifPresent(query -> figures.add(routedQuery(query, "1-minute rollup alone")));
    OperationFigure dailyWithMinute =
        timed(
            "create daily rollup (1-minute rollup present)",
            () -> create(DAILY_ROLLUP, "1 day", ""));
    OperationFigure hourly =
        timed(
            "create hourly rollup (with first and last, m4 points, time-weighted, gap and"
                + " percentile states; from raw data, the 1-minute rollup lacks the states)",
            () -> create(HOURLY_ROLLUP, "1 hour", FIRST_AND_LAST + SIGNALS));
    figures.add(dailyWithMinute);
    figures.add(hourly);
    return figures;
  }

  /** Runs {@code query} once with routing on and reports its time and the rollups it read. */
  private OperationFigure routedQuery(BenchmarkQuery query, String what) {
    String name = query.name() + " from the " + what;
    try (Session session = lake.newSession().set("rollup-routing", "true")) {
      long started = System.nanoTime();
      try (QueryResult result = session.sql(query.sql(SqlDialect.forTimelake()))) {
        long rows = result.rows().size();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        List<String> rollups =
            result.routes().stream()
                .flatMap(route -> route.rollups().stream())
                .map(Object::toString)
                .toList();
        return OperationFigure.measured(
            name,
            took,
            String.format(
                Locale.ROOT,
                "%,d rows, %s",
                rows,
                rollups.isEmpty()
                    ? "not routed: "
                        + result.routes().stream().findFirst().flatMap(r -> r.reason()).orElse("")
                    : "read " + String.join(", ", rollups)));
      }
    } catch (TimelakeException e) {
      return OperationFigure.notMeasured(name, notSupported(e));
    }
  }

  /** Appends hour {@code hour} of the plant (counted from its start), as the gateway would. */
  OperationFigure appendHour(Scale scale, long seed, int hour) {
    Instant start = PlantSql.START.plus(Duration.ofHours(hour));
    String sql = new PlantSql(scale, seed, hour + 1).readingsQuery(hour, hour + 1);
    Table readings = lake.table(IiotGenerator.READINGS);
    long started = System.nanoTime();
    AppendResult result =
        readings
            .newAppend()
            .batchId("hour-" + HOUR_LABEL.format(start))
            .fromQuery(sql)
            .clock(Clock.fixed(start.plus(Duration.ofHours(1)), ZoneOffset.UTC))
            .commit();
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    if (result.outcome() != AppendResult.Outcome.COMMITTED) {
      return OperationFigure.notMeasured(
          APPEND,
          "not measured: the append of " + HOUR_LABEL.format(start) + " was " + result.outcome());
    }
    return OperationFigure.measured(
        APPEND,
        took,
        String.format(
            Locale.ROOT,
            "%,d readings of %s, %d files%s",
            result.rows(),
            HOUR_LABEL.format(start),
            result.files(),
            result.maintenance().filter(m -> !m.isNoop()).isPresent()
                ? ", inline maintenance included"
                : ""));
  }

  /** Refreshes each rollup after the append, the 1-minute one first. */
  List<OperationFigure> refreshRollups() {
    return List.of(
        timed("refresh 1-minute rollup after one hourly append", () -> refresh(MINUTE_ROLLUP)),
        timed("refresh hourly rollup after one hourly append", () -> refresh(HOURLY_ROLLUP)),
        timed("refresh daily rollup after one hourly append", () -> refresh(DAILY_ROLLUP)));
  }

  /** Runs full maintenance on the readings. */
  OperationFigure maintain() {
    try {
      MaintenanceReport report = lake.table(IiotGenerator.READINGS).newMaintenance().run();
      return OperationFigure.measured(
          "maintain after the load",
          report.took(),
          String.format(
              Locale.ROOT,
              "files %d -> %d, %.1f -> %.1f MB (%.1f s per GB read), %d partitions rewritten,"
                  + " %d snapshots expired",
              report.filesBefore(),
              report.filesAfter(),
              report.bytesBefore() / 1e6,
              report.bytesAfter() / 1e6,
              report.bytesBefore() == 0
                  ? 0.0
                  : report.took().toMillis() / 1000.0 / (report.bytesBefore() / 1e9),
              report.partitionsRewritten(),
              report.snapshotsExpired()));
    } catch (TimelakeException e) {
      return OperationFigure.notMeasured("maintain after the load", notSupported(e));
    }
  }

  private String create(String name, String width, String extraAggregates) {
    return sql(
        "CREATE MATERIALIZED ROLLUP "
            + name
            + " AS SELECT tag, time_bucket(INTERVAL '"
            + width
            + "', time) AS bucket, "
            + STATISTICS
            + extraAggregates
            + " FROM iiot.readings GROUP BY tag, bucket WITH (refresh_interval = 'off')");
  }

  private String refresh(String name) {
    return sql("REFRESH MATERIALIZED ROLLUP " + name);
  }

  private String sql(String statement) {
    try (Session session = lake.newSession();
        QueryResult result = session.sql(statement)) {
      return result.message();
    }
  }

  private static OperationFigure timed(String name, Supplier<String> operation) {
    long started = System.nanoTime();
    try {
      String message = operation.get();
      return OperationFigure.measured(name, Duration.ofNanos(System.nanoTime() - started), message);
    } catch (TimelakeException e) {
      return OperationFigure.notMeasured(name, notSupported(e));
    }
  }

  private static String notSupported(TimelakeException e) {
    return "not supported yet: " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }
}

package dev.timelake.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.timelake.AccessDeniedException;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The web console's views of the lake for a logged-in user: the tables it reaches, a table's
 * columns, rollups, partitions, snapshots and settings (with an ordered-index table's coverage heat
 * map), maintenance with its plan first, and what the server's clients wrote lately. {@link
 * Console} has checked the login before any of these runs.
 */
final class ConsoleLakeViews {
  /** At most this many series and columns in a coverage heat map. */
  static final int HEAT_MAP_SERIES = 50;

  static final int HEAT_MAP_COLUMNS = 30;

  private final Lake lake;

  ConsoleLakeViews(Lake lake) {
    this.lake = lake;
  }

  /**
   * What the server's clients wrote in the last minutes and what was refused, for the tables and
   * refusals the login may see (refusals only for admins: they name other users' tables).
   */
  void ingest(HttpExchange exchange, ConsoleSessions.Login login) throws IOException {
    Map<String, Object> view = new LinkedHashMap<>(IngestMonitor.of(lake).view(otherWrites(login)));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> tables = (List<Map<String, Object>>) view.get("tables");
    view.put(
        "tables",
        tables.stream()
            .filter(t -> login.access.reaches(TableName.parse((String) t.get("table")).namespace()))
            .toList());
    if (login.access.role() != dev.timelake.Role.ADMIN) {
      view.put("refused", List.of());
    }
    ConsoleJson.send(exchange, 200, view);
  }

  /** At most this many tables' histories are read for one view of the ingest tab. */
  static final int MAX_TABLES_READ = 200;

  /**
   * Appends to the tables {@code login} reaches in the ingest view's window that no client of a
   * server wrote (those name their user): {@code timelake import}, the Java API, another engine —
   * read from each table's snapshot history, which the catalog already holds.
   */
  private List<IngestMonitor.OtherWrite> otherWrites(ConsoleSessions.Login login) {
    java.time.Instant since = java.time.Instant.now().minus(IngestMonitor.window());
    List<IngestMonitor.OtherWrite> writes = new ArrayList<>();
    int read = 0;
    for (TableName name : lake.tables()) {
      if (!login.access.reaches(name.namespace()) || read++ >= MAX_TABLES_READ) {
        continue;
      }
      Optional<dev.timelake.Table> table;
      try {
        table = lake.findTable(name);
      } catch (dev.timelake.TimelakeException e) {
        continue; // dropped or unreadable since it was listed: nothing to count
      }
      if (table.isEmpty() || table.get().rollupOf().isPresent()) {
        continue; // a rollup's snapshots are its refreshes, Timelake's own work
      }
      List<dev.timelake.TableInfo.SnapshotInfo> history = table.get().snapshots();
      for (int i = history.size() - 1; i >= 0; i--) {
        dev.timelake.TableInfo.SnapshotInfo snapshot = history.get(i);
        if (snapshot.committedAt().isBefore(since)) {
          break;
        }
        Optional<String> source = otherSource(snapshot);
        long rows = parseLong(snapshot.summary().get("added-records"));
        if (source.isPresent() && rows > 0) {
          writes.add(
              new IngestMonitor.OtherWrite(name, snapshot.committedAt(), rows, source.get()));
        }
      }
    }
    return writes;
  }

  /**
   * What wrote an append no server client made: another engine, or Timelake embedded (an import,
   * the Java API); empty for a client's write (it names its user) and for Timelake's own work.
   */
  private static Optional<String> otherSource(dev.timelake.TableInfo.SnapshotInfo snapshot) {
    Map<String, String> summary = snapshot.summary();
    if (summary.containsKey(dev.timelake.table.SnapshotSummaries.USER)) {
      return Optional.empty();
    }
    if (snapshot.isExternal()) {
      return "append".equals(snapshot.operation())
          ? Optional.of("another engine")
          : Optional.empty();
    }
    String operation = summary.get(dev.timelake.table.SnapshotSummaries.OPERATION);
    return java.util.Set.of("append", "insert", "upsert").contains(operation)
        ? Optional.of("import or embedded writer")
        : Optional.empty();
  }

  private static long parseLong(String text) {
    try {
      return text == null ? 0 : Long.parseLong(text);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  void tables(HttpExchange exchange, ConsoleSessions.Login login) throws IOException {
    List<Map<String, Object>> tables = new ArrayList<>();
    for (TableName name : lake.tables()) {
      if (login.access.reaches(name.namespace())) {
        Map<String, Object> table = new LinkedHashMap<>();
        table.put("name", name.toString());
        tables.add(table);
      }
    }
    ConsoleJson.send(exchange, 200, Map.of("tables", tables));
  }

  /**
   * Who wrote a snapshot: the server client's login the summary names; another engine by its name;
   * else Timelake's own work or an embedded writer, which record no user.
   */
  private static String writtenBy(dev.timelake.TableInfo.SnapshotInfo snapshot) {
    String user = snapshot.summary().get(dev.timelake.table.SnapshotSummaries.USER);
    if (user != null) {
      return user;
    }
    if (snapshot.isExternal()) {
      return "another engine"
          + Optional.ofNullable(snapshot.summary().get("engine-name"))
              .map(name -> " (" + name + ")")
              .orElse("");
    }
    return "";
  }

  /**
   * {@code ?name=ns.t}: a table's columns, contract and settings, partitions (files, rows, bytes),
   * newest snapshots, and its rollups with their freshness.
   */
  void table(HttpExchange exchange, ConsoleSessions.Login login) throws IOException {
    Optional<dev.timelake.Table> found = reachable(exchange, login, "name");
    if (found.isEmpty()) {
      return;
    }
    dev.timelake.Table table = found.get();
    dev.timelake.TableInfo info = table.info();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("name", table.name().toString());
    json.put(
        "columns",
        table.columns().stream()
            .map(
                c ->
                    Map.of(
                        "name",
                        c.name(),
                        "type",
                        c.type().toString(),
                        "nullable",
                        c.nullability() == dev.timelake.Column.Nullability.NULLABLE))
            .toList());
    json.put("timeColumn", table.timeColumn().orElse(null));
    json.put("seriesKey", table.seriesKey());
    json.put("rollupOf", table.rollupOf().map(Object::toString).orElse(null));
    json.put("settings", new java.util.TreeMap<>(table.settings()));
    List<Map<String, Object>> partitions = new ArrayList<>();
    for (dev.timelake.TableInfo.PartitionInfo p : info.partitions()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("label", p.label());
      entry.put("files", p.files());
      entry.put("rows", p.rows());
      entry.put("bytes", p.bytes());
      entry.put("overlappingFiles", p.overlappingFiles());
      partitions.add(entry);
    }
    json.put("partitions", partitions);
    // The work maintenance has to do: files whose rows may share keys, read in overlap groups.
    List<List<dev.timelake.ReadPlan.ReadFile>> groups = table.readPlan().toDeduplicate();
    json.put("overlapGroups", groups.size());
    json.put("filesInOverlapGroups", groups.stream().mapToInt(List::size).sum());
    List<Map<String, Object>> snapshots = new ArrayList<>();
    List<dev.timelake.TableInfo.SnapshotInfo> history = info.snapshots();
    for (int i = history.size() - 1; i >= 0 && snapshots.size() < 50; i--) {
      dev.timelake.TableInfo.SnapshotInfo snapshot = history.get(i);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("id", Long.toString(snapshot.id()));
      entry.put("committedAt", snapshot.committedAt().toString());
      entry.put(
          "operation", snapshot.summary().getOrDefault("timelake.operation", snapshot.operation()));
      entry.put("addedRows", snapshot.summary().get("added-records"));
      entry.put("deletedRows", snapshot.summary().get("deleted-records"));
      entry.put("writtenBy", writtenBy(snapshot));
      snapshots.add(entry);
    }
    json.put("snapshots", snapshots);
    long current = table.snapshotId().orElse(-1);
    List<Map<String, Object>> rollups = new ArrayList<>();
    Map<Long, java.time.Instant> committed = new java.util.HashMap<>();
    history.forEach(snapshot -> committed.put(snapshot.id(), snapshot.committedAt()));
    if (table.rollupOf().isEmpty()) {
      for (dev.timelake.RollupInfo rollup : lake.rollups(table.name())) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", rollup.name().toString());
        entry.put("bucket", rollup.bucket());
        entry.put("keys", rollup.keys());
        entry.put("aggregates", rollup.aggregates());
        entry.put("filter", rollup.filter());
        entry.put("reflectsSnapshot", Long.toString(rollup.reflectsSnapshot()));
        entry.put("fresh", rollup.reflectsSnapshot() == current);
        // How far behind the table the rollup is: the time between the raw commit it reflects
        // and the table's newest (unknown when that commit has expired).
        java.time.Instant reflected = committed.get(rollup.reflectsSnapshot());
        java.time.Instant newest = committed.get(current);
        entry.put(
            "lagSeconds",
            rollup.reflectsSnapshot() == current
                ? Long.valueOf(0)
                : reflected == null || newest == null
                    ? null
                    : Long.valueOf(java.time.Duration.between(reflected, newest).toSeconds()));
        entry.put("rows", rollup.rows());
        entry.put("files", rollup.files());
        rollups.add(entry);
      }
    }
    json.put("rollups", rollups);
    if (table.settings().containsKey("index-granularity")) {
      json.put("coverage", coverage(table));
    }
    ConsoleJson.send(exchange, 200, json);
  }

  /**
   * An ordered-index table's coverage as a heat map: its time span cut into at most {@link
   * #HEAT_MAP_COLUMNS} stretches, each series' covered share of each, and its longest gap.
   */
  private Map<String, Object> coverage(dev.timelake.Table table) {
    dev.timelake.IndexCoverage coverage = table.indexCoverage();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("granularity", coverage.granularity());
    List<Map<String, Object>> identities = coverage.identities();
    List<java.time.Instant> span = span(table);
    List<String> columns = new ArrayList<>();
    List<Map<String, Object>> series = new ArrayList<>();
    if (!identities.isEmpty() && span.size() == 2) {
      // Whole intervals of the granularity per stretch, from an interval's start.
      long granularity = granularitySeconds(coverage.granularity());
      java.time.Instant from =
          java.time.Instant.ofEpochSecond(
              Math.floorDiv(span.get(0).getEpochSecond(), granularity) * granularity);
      long seconds = java.time.Duration.between(from, span.get(1)).toSeconds() + 1;
      long intervals = Math.max(1, -Math.floorDiv(-seconds, granularity * HEAT_MAP_COLUMNS));
      long step = intervals * granularity;
      List<java.time.Instant> starts = new ArrayList<>();
      for (int i = 0;
          i < HEAT_MAP_COLUMNS && !from.plusSeconds(step * i).isAfter(span.get(1));
          i++) {
        starts.add(from.plusSeconds(step * i));
        columns.add(from.plusSeconds(step * i).toString());
      }
      java.time.Instant to = starts.get(starts.size() - 1).plusSeconds(step);
      for (Map<String, Object> identity :
          identities.subList(0, Math.min(HEAT_MAP_SERIES, identities.size()))) {
        List<Double> ratios = new ArrayList<>();
        for (java.time.Instant start : starts) {
          ratios.add(coverage.ratio(identity, start, start.plusSeconds(step)));
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("series", identity.values().stream().map(String::valueOf).toList());
        row.put("ratios", ratios);
        coverage
            .longestGap(identity, span.get(0), to)
            .ifPresent(
                gap ->
                    row.put(
                        "longestGap",
                        Map.of(
                            "start", gap.start().toString(),
                            "end", gap.end().toString(),
                            "intervals", gap.intervals())));
        series.add(row);
      }
    }
    json.put("columns", columns);
    json.put("series", series);
    json.put("seriesShown", series.size());
    json.put("seriesTotal", identities.size());
    return json;
  }

  private static long granularitySeconds(String granularity) {
    try {
      return Math.max(1, dev.timelake.table.Durations.parse(granularity).toSeconds());
    } catch (IllegalArgumentException e) {
      return 1;
    }
  }

  /**
   * The first and last instant of the table's index, read as Timelake's own query; empty when none.
   */
  private List<java.time.Instant> span(dev.timelake.Table table) {
    String time = table.timeColumn().orElse(null);
    if (time == null) {
      return List.of();
    }
    try (dev.timelake.Session session = lake.newSession();
        QueryResult result =
            session.sql(
                "SELECT min("
                    + dev.timelake.engine.SqlText.identifier(time)
                    + "), max("
                    + dev.timelake.engine.SqlText.identifier(time)
                    + ") FROM "
                    + dev.timelake.engine.SqlText.qualified(
                        table.name().namespace(), table.name().name()))) {
      List<Object> row = result.rows().get(0);
      if (!(row.get(0) instanceof OffsetDateTime first)
          || !(row.get(1) instanceof OffsetDateTime last)) {
        return List.of();
      }
      return List.of(first.toInstant(), last.toInstant().plusNanos(1000));
    }
  }

  /**
   * {@code {"table": "ns.t", "dryRun": true}}: what maintenance would do, or does it and reports;
   * an admin's work, as OPTIMIZE is. It runs as Timelake's own work, outside the login's session
   * and any transaction of it.
   */
  void maintain(
      HttpExchange exchange, ConsoleSessions.Login login, JsonNode body, Console.BodyRead work)
      throws IOException {
    String name = ConsoleJson.text(body, "table");
    TableName table;
    try {
      table = TableName.parse(name);
      login.access.require(dev.timelake.Role.ADMIN, table.namespace(), "maintain " + table);
    } catch (AccessDeniedException e) {
      ConsoleJson.error(exchange, 403, ConsoleJson.forClient(lake, e.getMessage()));
      return;
    } catch (TimelakeException | IllegalArgumentException e) {
      ConsoleJson.error(exchange, 400, ConsoleJson.forClient(lake, e.getMessage()));
      return;
    }
    work.run();
    try {
      dev.timelake.Maintenance maintenance = lake.table(table).newMaintenance();
      if (body.path("dryRun").asBoolean(false)) {
        ConsoleJson.send(exchange, 200, Map.of("plan", maintenance.dryRun()));
        return;
      }
      dev.timelake.MaintenanceReport report = maintenance.run();
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("filesBefore", report.filesBefore());
      json.put("filesAfter", report.filesAfter());
      json.put("partitionsRewritten", report.partitionsRewritten());
      json.put("snapshotsExpired", report.snapshotsExpired());
      json.put("tookMs", report.took().toMillis());
      json.put("explanation", report.explanation());
      ConsoleJson.send(exchange, 200, json);
    } catch (TimelakeException e) {
      ConsoleJson.error(exchange, 400, ConsoleJson.forClient(lake, e.getMessage()));
    }
  }

  /** The table the {@code parameter} of the query string names, if the login reaches it. */
  private Optional<dev.timelake.Table> reachable(
      HttpExchange exchange, ConsoleSessions.Login login, String parameter) throws IOException {
    String raw = exchange.getRequestURI().getRawQuery();
    String name = null;
    for (String pair : raw == null ? new String[0] : raw.split("&")) {
      if (pair.startsWith(parameter + "=")) {
        name =
            java.net.URLDecoder.decode(
                pair.substring(parameter.length() + 1), StandardCharsets.UTF_8);
      }
    }
    if (name == null) {
      ConsoleJson.error(exchange, 400, "Name the table: ?" + parameter + "=namespace.table");
      return Optional.empty();
    }
    Optional<dev.timelake.Table> table;
    try {
      TableName parsed = TableName.parse(name);
      table = login.access.reaches(parsed.namespace()) ? lake.findTable(parsed) : Optional.empty();
    } catch (TimelakeException | IllegalArgumentException e) {
      ConsoleJson.error(exchange, 400, ConsoleJson.forClient(lake, e.getMessage()));
      return Optional.empty();
    }
    if (table.isEmpty()) {
      // The same answer whether it is missing or out of reach: names of other namespaces stay
      // hidden.
      ConsoleJson.error(exchange, 404, "Table " + name + " does not exist");
    }
    return table;
  }
}

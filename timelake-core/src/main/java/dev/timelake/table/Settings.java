package dev.timelake.table;

import static dev.timelake.table.Level.CALL;
import static dev.timelake.table.Level.CREATE;
import static dev.timelake.table.Level.SESSION;
import static dev.timelake.table.Level.TABLE;

import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one registry of Timelake settings. Table properties, SQL {@code SET}, the CLI's {@code --set}
 * and {@code timelake settings} all come from here; unknown names and bad values are rejected with
 * what is allowed.
 */
public final class Settings {
  public static final Setting TIME_COLUMN =
      declare(
          "time-column",
          SettingKind.STRING,
          null,
          Set.of(CREATE),
          "0.1",
          "The ordered-index column (timestamp with time zone, µs); also index-column. Unset: a"
              + " plain table.");
  public static final Setting SERIES_KEY =
      declare(
          "series-key",
          SettingKind.COLUMN_LIST,
          "",
          Set.of(CREATE),
          "0.1",
          "Ordered columns that identify one series (also entity-columns); every file is sorted by"
              + " (series key…, time).");
  public static final Setting INDEX_GRANULARITY =
      declare(
          "index-granularity",
          SettingKind.STRING,
          null,
          Set.of(CREATE),
          "0.1",
          "Width of the ordered index's intervals ('1m', '15 minutes', '1h', '1d'): each series"
              + " may hold at most one row per interval. Unset: any number of rows.");
  public static final Setting ON_CONFLICT =
      declareChoice(
          "on-conflict",
          List.of("error", "replace"),
          "error",
          Set.of(CREATE),
          "0.1",
          "With index-granularity, a second row of a series in one interval: error fails the"
              + " append (DUPLICATE_INDEX_INTERVAL, INDEX_INTERVAL_OVERLAP); replace keeps the"
              + " newest write per series and interval (dedup on read keyed by interval).");
  public static final Setting WRITE_POLICY =
      declareChoice(
          "write-policy",
          List.of("append", "upsert"),
          "append",
          Set.of(CREATE, TABLE),
          "0.8",
          "What a write of the table is: append (new readings; a copy of a stored key still"
              + " replaces it, the newest write winning) or upsert (every write is a correction:"
              + " INSERT is INSERT OR REPLACE, appends and imports are recorded and reported as"
              + " upserts). Reads are the same either way.");
  public static final Setting CHUNK =
      declare(
          "chunk",
          SettingKind.CHUNK,
          "day",
          Set.of(CREATE),
          "0.1",
          "Time partition size: hour, day or month (Iceberg transform of the time column).");
  public static final Setting PARTITION_WIDTH =
      declare(
          "partition-width",
          SettingKind.INTEGER,
          "2147483647",
          Set.of(CREATE),
          "0.4",
          "For a BIGINT time column (a logical clock): the partition width in its units (Iceberg"
              + " truncate), 1 to 2147483647; the value ÷ width of every row must stay within"
              + " ±2^31.");
  public static final Setting INGEST_TIME =
      declare(
          "ingest-time",
          SettingKind.BOOLEAN,
          "true",
          Set.of(CREATE),
          "0.1",
          "Create the insertion-time column _ingest_ts, set once per append (latest write wins).");
  public static final Setting INGEST_TIME_COLUMN =
      declare(
          "ingest-time-column",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.1",
          "Name of the insertion-time column; absent when the table has none. Managed.");
  public static final Setting UNSIGNED_COLUMNS =
      declare(
          "unsigned-columns",
          SettingKind.COLUMN_LIST,
          "",
          Set.of(),
          "0.4",
          "Columns declared UBIGINT, stored as DECIMAL(20,0) (Iceberg has no unsigned type): they"
              + " take unsigned input only, from 0 to 18446744073709551615. Managed.");
  public static final Setting FORMAT_VERSION =
      declare(
          "format-version",
          SettingKind.INTEGER,
          "2",
          Set.of(),
          "0.1",
          "Timelake table format version; writers refuse tables newer than they know. Managed.");
  public static final Setting DEDUP =
      declare(
          "dedup",
          SettingKind.BOOLEAN,
          "true",
          Set.of(CREATE, TABLE),
          "0.1",
          "Keep only the latest row per (series key…, time) on read and in compaction.");
  public static final Setting READ_DEDUP =
      declare(
          "read-dedup",
          SettingKind.BOOLEAN,
          "true",
          Set.of(TABLE, SESSION),
          "0.1",
          "Remove copies of a row on read; the session's value overrides the table's.");
  public static final Setting READ_DEDUP_STRATEGY =
      declareChoice(
          "read-dedup-strategy",
          List.of("merge", "keys-first"),
          "merge",
          Set.of(TABLE, SESSION),
          "0.1",
          "How the reader finds older copies: merge the overlapping files, or list the older keys"
              + " first and anti-join them.");
  public static final Setting ROW_GROUP_ROWS =
      declare(
          "row-group-rows",
          SettingKind.INTEGER,
          "65536",
          Set.of(CREATE, TABLE, CALL),
          "0.1",
          "Rows per Parquet row group in written files. Files are sorted by (series key…, time),"
              + " so small groups let a query of a few series and hours skip the rest of a file"
              + " (and give both cores groups to scan); see docs/benchmarks.md.");
  public static final Setting COMPRESSION_CODEC =
      declareChoice(
          "compression-codec",
          List.of("zstd", "snappy", "gzip", "uncompressed"),
          "zstd",
          Set.of(CREATE, TABLE),
          "0.1",
          "Parquet compression codec of written files.");

  public static final Setting AUTO_MAINTAIN =
      declare(
          "auto-maintain",
          SettingKind.BOOLEAN,
          "true",
          Set.of(CREATE, TABLE, CALL),
          "0.1",
          "Run inline maintenance (compaction, retention, expiry) after each append when its"
              + " thresholds are crossed; a failure never undoes the append.");
  public static final Setting TARGET_FILE_SIZE =
      declare(
          "target-file-size",
          SettingKind.BYTES,
          "134217728",
          Set.of(CREATE, TABLE),
          "0.1",
          "Size of files written by compaction; files under 3/4 of it count as small.");
  public static final Setting COMPACT_MIN_FILES =
      declare(
          "compact-min-files",
          SettingKind.INTEGER,
          "2",
          Set.of(CREATE, TABLE, CALL),
          "0.1",
          "Small files a partition needs before compaction; also the backfill files that make a"
              + " compacted cold partition compact again.");
  public static final Setting COMPACT_COLD_AFTER =
      declare(
          "compact-cold-after",
          SettingKind.DURATION,
          "1h",
          Set.of(CREATE, TABLE),
          "0.1",
          "Once a partition's time range ended this long before the newest data, inline"
              + " maintenance rewrites it into one sorted, duplicate-free file; backfill into it is"
              + " merged after compact-min-files files, or once none arrived for this long.");
  public static final Setting RETENTION =
      declare(
          "retention",
          SettingKind.DURATION,
          null,
          Set.of(CREATE, TABLE),
          "0.1",
          "Drop partitions that lie entirely before now minus this duration. Unset: keep all.");
  public static final Setting SNAPSHOT_RETENTION =
      declare(
          "snapshot-retention",
          SettingKind.DURATION,
          "1d",
          Set.of(CREATE, TABLE),
          "0.1",
          "Snapshots younger than this are kept; older ones expire and their unused files are"
              + " deleted.");
  public static final Setting MIN_SNAPSHOTS =
      declare(
          "min-snapshots",
          SettingKind.INTEGER,
          "1",
          Set.of(CREATE, TABLE),
          "0.1",
          "The newest snapshots always kept, whatever their age.");
  public static final Setting MAX_SNAPSHOTS =
      declare(
          "max-snapshots",
          SettingKind.INTEGER,
          "500",
          Set.of(CREATE, TABLE),
          "0.1",
          "Beyond the newest this many, snapshots expire even when young.");
  public static final Setting KEEP_SNAPSHOTS_UNTIL =
      declare(
          "keep-snapshots-until",
          SettingKind.STRING,
          null,
          Set.of(TABLE),
          "0.1",
          "An ISO-8601 instant; no snapshot expires before it (e.g. during an upgrade).");
  public static final Setting ORPHAN_FILE_AGE =
      declare(
          "orphan-file-age",
          SettingKind.DURATION,
          "1d",
          Set.of(CREATE, TABLE),
          "0.1",
          "Files in the table's folders that no snapshot uses are deleted once this old, so a"
              + " write in progress is never removed.");

  public static final Setting LATEST_INDEX =
      declare(
          "latest-index",
          SettingKind.BOOLEAN,
          "true",
          Set.of(TABLE, SESSION),
          "0.1",
          "Answer queries for the newest row per series (QUALIFY row_number() … = 1, DISTINCT ON,"
              + " LATEST ON, timelake latest) from the table's last-value index, exactly.");
  public static final Setting HOT_TIER =
      declare(
          "hot-tier",
          SettingKind.BOOLEAN,
          "true",
          Set.of(TABLE, SESSION),
          "0.1",
          "A server's hot tier takes the writes of its clients (line protocol; INSERTs of constants"
              + " outside a transaction), answered once in its log and committed later; false"
              + " commits each write before answering it. The session's value overrides the"
              + " table's.");
  public static final Setting ROLLUP_ROUTING =
      declare(
          "rollup-routing",
          SettingKind.BOOLEAN,
          "true",
          Set.of(TABLE, SESSION),
          "0.1",
          "Answer GROUP BY time_bucket queries on a raw table from its rollups, exactly; the"
              + " session's value overrides the table's.");
  public static final Setting ROLLUP_REFRESH_INTERVAL =
      declare(
          "rollup-refresh-interval",
          SettingKind.DURATION_OR_OFF,
          "1m",
          Set.of(CREATE, TABLE),
          "0.1",
          "On a rollup: inline maintenance after an append to its raw table refreshes it once its"
              + " last refresh is older than this; off: only REFRESH and maintain do.");
  public static final Setting ROLLUP_REFRESH_LAG =
      declare(
          "rollup-refresh-lag",
          SettingKind.DURATION,
          "0s",
          Set.of(CREATE, TABLE),
          "0.8",
          "On a rollup: a refresh leaves buckets that end later than the raw snapshot's commit time"
              + " less this to raw data (WITH (refresh_lag = '2 minutes')), so the bucket being"
              + " written is not committed again on every refresh; routing reads them from raw"
              + " data.");
  public static final Setting ROLLUP_REFRESH_COMMIT_ROWS =
      declare(
          "rollup-refresh-commit-rows",
          SettingKind.INTEGER,
          "1000000",
          Set.of(CREATE, TABLE),
          "0.8",
          "On a rollup: about how many rows one refresh commit holds; a window with more is"
              + " committed in several, cut between buckets.");
  public static final Setting ROLLUP_FOLLOW_DELETES =
      declare(
          "rollup-follow-deletes",
          SettingKind.BOOLEAN,
          "true",
          Set.of(CREATE, TABLE),
          "0.8",
          "On a rollup: a DELETE of raw rows changes the buckets they were in (recomputed by the next"
              + " refresh, read from raw data until then; a bucket left without rows disappears);"
              + " false: the rollup keeps what the deleted rows contributed, as it does for"
              + " retention.");
  public static final Setting LAST_DELETE =
      declare(
          "last-delete",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.8",
          "On a table: when a DELETE last removed rows from it (ms since the epoch), so a refresh"
              + " whose history since its record expired knows it may have missed one. Managed.");
  public static final Setting RETENTION_HORIZON =
      declare(
          "retention-horizon",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.8",
          "On a table: the start (µs since the epoch) of the oldest partition retention kept, so a"
              + " rollup knows which of its buckets lost raw rows to retention. Managed.");
  public static final Setting ROLLUPS =
      declare(
          "rollups",
          SettingKind.STRING,
          "",
          Set.of(),
          "0.1",
          "On a raw table: its rollups, comma-separated. Managed.");
  public static final Setting ROLLUP_SOURCE =
      declare(
          "rollup-source",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.1",
          "On a rollup: the raw table it aggregates. Managed.");
  public static final Setting ROLLUP_BUCKET =
      declare(
          "rollup-bucket",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.1",
          "On a rollup: the bucket width, a duration (1h), or local days, months or years (1 day,"
              + " 3 months, 1 year) in its rollup-time-zone. Managed.");
  public static final Setting ROLLUP_TIME_ZONE =
      declare(
          "rollup-time-zone",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.8",
          "On a rollup whose buckets are local days or months: their time zone (absent: UTC)."
              + " Managed.");
  public static final Setting ROLLUP_ORIGIN =
      declare(
          "rollup-origin",
          SettingKind.INTEGER,
          null,
          Set.of(),
          "0.1",
          "On a rollup: the bucket origin in µs since the epoch (time_bucket: 2000-01-03,"
              + " date_bin: the epoch). Managed.");
  public static final Setting ROLLUP_FILTER =
      declare(
          "rollup-filter",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.8",
          "On a filtered rollup: its WHERE, each term in parentheses (absent: every row). Managed.");
  public static final Setting ROLLUP_AGGREGATES =
      declare(
          "rollup-aggregates",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.1",
          "On a rollup: its aggregates as JSON (output name, function, column). Managed.");
  public static final Setting ROLLUP_DEFINITION =
      declare(
          "rollup-definition",
          SettingKind.STRING,
          null,
          Set.of(),
          "0.1",
          "On a rollup: the SELECT it was defined with. Managed.");

  private static List<Setting> registry;
  private static Map<String, Setting> byName;

  private Settings() {}

  private static Setting declare(
      String name,
      SettingKind kind,
      String defaultValue,
      Set<Level> levels,
      String since,
      String description) {
    return register(
        new Setting(
            name, kind, Optional.ofNullable(defaultValue), levels, List.of(), since, description));
  }

  private static Setting declareChoice(
      String name,
      List<String> choices,
      String defaultValue,
      Set<Level> levels,
      String since,
      String description) {
    return register(
        new Setting(
            name,
            SettingKind.CHOICE,
            Optional.of(defaultValue),
            levels,
            choices,
            since,
            description));
  }

  private static synchronized Setting register(Setting setting) {
    if (registry == null) {
      registry = new ArrayList<>();
      byName = new LinkedHashMap<>();
    }
    if (byName.putIfAbsent(setting.name(), setting) != null) {
      throw new IllegalStateException("Setting declared twice: " + setting.name());
    }
    registry.add(setting);
    return setting;
  }

  /**
   * Other names of settings: the words of the ordered-index format (seed 003), so that users of
   * either system find theirs.
   */
  private static final Map<String, String> ALIASES =
      Map.of("index-column", "time-column", "entity-columns", "series-key");

  /** Every declared setting, sorted by name. */
  public static List<Setting> all() {
    List<Setting> sorted = new ArrayList<>(registry);
    sorted.sort((a, b) -> a.name().compareTo(b.name()));
    return Collections.unmodifiableList(sorted);
  }

  /**
   * Finds a setting by any accepted spelling: {@code read-dedup}, {@code read_dedup}, {@code
   * timelake.read-dedup} or {@code timelake.read_dedup}, case-insensitively.
   */
  public static Optional<Setting> find(String spelling) {
    String key = spelling.trim().toLowerCase(Locale.ROOT);
    if (key.startsWith(Setting.PREFIX)) {
      key = key.substring(Setting.PREFIX.length());
    }
    key = key.replace('_', '-');
    return Optional.ofNullable(byName.get(ALIASES.getOrDefault(key, key)));
  }

  /** Like {@link #find} but rejects an unknown name with the list of known ones. */
  public static Setting require(String spelling) {
    return find(spelling)
        .orElseThrow(
            () ->
                TimelakeException.validation(
                    "Unknown setting '%s' (known settings: %s)", spelling, knownNames()));
  }

  /**
   * Finds a setting users may give at {@code level}, and checks {@code value}; returns the setting
   * and the canonical value.
   */
  public static Map.Entry<Setting, String> check(String spelling, String value, Level level) {
    Setting setting = require(spelling);
    if (!setting.allows(level)) {
      throw TimelakeException.validation(
          "Setting '%s' cannot be set at %s level (allowed: %s)",
          setting.name(), level.name().toLowerCase(Locale.ROOT), setting.levelNames());
    }
    return Map.entry(setting, setting.canonical(value));
  }

  /** Splits a comma-separated list, trimming blanks. */
  public static List<String> splitList(String value) {
    if (value == null || value.isBlank()) {
      return List.of();
    }
    return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  private static String knownNames() {
    return String.join(
        ", ", all().stream().filter(s -> !s.isManaged()).map(Setting::name).toList());
  }
}

package dev.timelake.maintain;

import dev.timelake.catalog.LoadedTable;
import dev.timelake.read.PlannedFile;
import dev.timelake.read.ScanPlanner;
import dev.timelake.table.Durations;
import dev.timelake.table.Setting;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;

/**
 * Decides what maintenance to do from table metadata: which partitions retention drops, which runs
 * of files to compact (size tiers for fresh partitions, a full rewrite for cold ones), and whether
 * snapshots expire. Pure: reads metadata, writes nothing.
 */
public final class MaintenancePlanner {
  /** Smallest size tier: files under 64 KiB share tier 0; each tier is 4 times the one below. */
  static final long TIER_BASE = 64 * 1024;

  static final int TIER_FANOUT = 4;

  /** Inline maintenance rewrites at most this many partitions per append. */
  static final int MAX_INLINE_REWRITES = 8;

  /** Inline expiry waits until this many snapshots can expire, so it does not run every append. */
  static final int EXPIRE_BATCH = 20;

  /** Files written by compaction carry this file-name prefix. */
  public static final String COMPACTED_PREFIX = "compact";

  private final LoadedTable table;
  private final MaintenanceOptions options;
  private final TableContract contract;

  private MaintenancePlanner(LoadedTable table, MaintenanceOptions options) {
    this.table = table;
    this.options = options;
    this.contract = table.contract();
  }

  /** Plans maintenance of {@code table}. */
  public static MaintenancePlan plan(LoadedTable table, MaintenanceOptions options) {
    return new MaintenancePlanner(table, options).plan();
  }

  private MaintenancePlan plan() {
    Snapshot current = table.iceberg().currentSnapshot();
    if (current == null) {
      return new MaintenancePlan(
          table.name(), -1, OptionalLong.empty(), 0, List.of(), false, false, List.of());
    }
    List<String> reasons = new ArrayList<>();
    Map<Integer, List<PlannedFile>> partitions = new TreeMap<>();
    for (PlannedFile file : ScanPlanner.liveFiles(table)) {
      partitions.computeIfAbsent(file.partition(), k -> new ArrayList<>()).add(file);
    }
    OptionalLong cutoff = retentionCutoff();
    int dropped = 0;
    if (cutoff.isPresent() && contract.isTimeSeries() && !contract.hasLogicalClock()) {
      int firstKept = contract.partitioning().ordinal(cutoff.getAsLong());
      dropped = (int) partitions.keySet().stream().filter(p -> p < firstKept).count();
      partitions.keySet().removeIf(p -> p < firstKept);
      if (dropped > 0) {
        reasons.add(
            "retention: drop "
                + dropped
                + " partitions before "
                + contract.partitioning().label(firstKept));
      }
    }
    List<Rewrite> rewrites = rewrites(partitions);
    boolean expire = shouldExpire(reasons);
    boolean orphans = options.mode() == MaintenanceMode.FULL;
    return new MaintenancePlan(
        table.name(),
        current.snapshotId(),
        dropped > 0 ? OptionalLong.of(startOfPartition(cutoff.getAsLong())) : OptionalLong.empty(),
        dropped,
        rewrites,
        expire,
        orphans,
        reasons);
  }

  private long startOfPartition(long micros) {
    return contract.partitioning().start(contract.partitioning().ordinal(micros));
  }

  private OptionalLong retentionCutoff() {
    return contract
        .setting(Settings.RETENTION)
        .map(
            value ->
                OptionalLong.of(micros(options.now()) - Durations.parse(value).toNanos() / 1000))
        .orElse(OptionalLong.empty());
  }

  private List<Rewrite> rewrites(Map<Integer, List<PlannedFile>> partitions) {
    List<Rewrite> rewrites = new ArrayList<>();
    long newest =
        partitions.values().stream()
            .flatMap(List::stream)
            .mapToLong(PlannedFile::maxMicros)
            .max()
            .orElse(Long.MIN_VALUE);
    long coldAfter = Durations.parse(setting(Settings.COMPACT_COLD_AFTER)).toNanos() / 1000;
    long target = Long.parseLong(setting(Settings.TARGET_FILE_SIZE));
    int minFiles = Integer.parseInt(setting(Settings.COMPACT_MIN_FILES));
    for (Map.Entry<Integer, List<PlannedFile>> entry : partitions.entrySet()) {
      int partition = entry.getKey();
      List<PlannedFile> files = entry.getValue();
      String label = label(partition);
      long external = files.stream().filter(PlannedFile::isExternal).count();
      if (external > 0 && contract.ingestTimeColumn().isPresent()) {
        // Rewritten, the rows keep their commits' insertion times after those snapshots expire.
        rewrites.add(
            new Rewrite(
                partition,
                label,
                files,
                external + " files other engines appended, their commits' times written in"));
        continue;
      }
      if (files.size() < 2) {
        continue;
      }
      if (options.mode() == MaintenanceMode.FULL) {
        rewrites.add(
            new Rewrite(partition, label, files, "full rewrite of " + files.size() + " files"));
        continue;
      }
      // A logical clock's units are the application's: no duration says when its partitions
      // are cold.
      boolean cold =
          contract.isTimeSeries()
              && !contract.hasLogicalClock()
              && contract.partitioning().end(partition) + coldAfter <= newest;
      if (cold) {
        coldRewrite(partition, label, files, minFiles, coldAfter).ifPresent(rewrites::add);
      } else if (options.touchedPartitions().isEmpty()
          || options.touchedPartitions().contains(partition)) {
        rewrites.addAll(tieredRewrites(partition, label, files, target, minFiles));
      }
    }
    if (options.mode() == MaintenanceMode.INLINE && rewrites.size() > MAX_INLINE_REWRITES) {
      rewrites.sort(Comparator.comparingLong(this::priority).reversed());
      return List.copyOf(rewrites.subList(0, MAX_INLINE_REWRITES));
    }
    return rewrites;
  }

  /** Small-file count times query heat: partitions users read are compacted first. */
  private long priority(Rewrite rewrite) {
    return rewrite.files().size() * (1 + options.heat().getOrDefault(rewrite.partition(), 0L));
  }

  /**
   * A cold partition is rewritten into one file when it has never been, after {@code minFiles}
   * backfill files, or once its backfill has gone quiet: no backfill file arrived (by insertion
   * time) within {@code coldAfter} of now. Without the last rule a day whose last late reading
   * arrives after its rewrite keeps that one file, below the count, and is deduplicated on every
   * read.
   */
  private java.util.Optional<Rewrite> coldRewrite(
      int partition, String label, List<PlannedFile> files, int minFiles, long coldAfter) {
    long compacted = files.stream().filter(MaintenancePlanner::isCompacted).count();
    if (compacted == 0) {
      return java.util.Optional.of(
          new Rewrite(partition, label, files, "cold partition with " + files.size() + " files"));
    }
    long backfill = files.size() - compacted;
    if (backfill >= minFiles) {
      return java.util.Optional.of(
          new Rewrite(
              partition, label, files, "cold partition with " + backfill + " backfill files"));
    }
    long lastArrival =
        files.stream()
            .filter(file -> !isCompacted(file))
            .mapToLong(PlannedFile::ingestMaxMicros)
            .max()
            .orElse(Long.MIN_VALUE);
    if (lastArrival != Long.MIN_VALUE && lastArrival + coldAfter <= micros(options.now())) {
      return java.util.Optional.of(
          new Rewrite(
              partition,
              label,
              files,
              "cold partition with " + backfill + " quiet backfill files"));
    }
    return java.util.Optional.empty();
  }

  /** Runs of adjacent small files of one size tier, at least {@link #TIER_FANOUT} long. */
  private List<Rewrite> tieredRewrites(
      int partition, String label, List<PlannedFile> files, long target, int minFiles) {
    List<Rewrite> rewrites = new ArrayList<>();
    int runLength = Math.max(minFiles, TIER_FANOUT);
    List<PlannedFile> run = new ArrayList<>();
    int runTier = -1;
    for (PlannedFile file : files) {
      boolean small = file.sizeBytes() < target * 3 / 4;
      int tier = tier(file.sizeBytes());
      if (!small || tier != runTier) {
        addRun(rewrites, partition, label, withoutTies(run, file), runLength);
        run = new ArrayList<>();
        runTier = small ? tier : -1;
      }
      if (small) {
        run.add(file);
      }
    }
    addRun(rewrites, partition, label, run, runLength);
    return rewrites;
  }

  /**
   * The run less its trailing files that share a data sequence number with the file after it (the
   * two files one append writes to a partition, or pieces of one compaction). The merged file takes
   * the run's newest sequence number; tied with a file left out, neither would win.
   */
  private static List<PlannedFile> withoutTies(List<PlannedFile> run, PlannedFile next) {
    int end = run.size();
    while (end > 0 && run.get(end - 1).sequenceNumber() == next.sequenceNumber()) {
      end--;
    }
    return run.subList(0, end);
  }

  private static void addRun(
      List<Rewrite> rewrites, int partition, String label, List<PlannedFile> run, int runLength) {
    if (run.size() >= runLength) {
      rewrites.add(
          new Rewrite(
              partition,
              label,
              run,
              run.size() + " small files of size tier " + tier(run.get(0).sizeBytes())));
    }
  }

  static int tier(long bytes) {
    int tier = 0;
    long bound = TIER_BASE;
    while (bytes >= bound * TIER_FANOUT && tier < 30) {
      bound *= TIER_FANOUT;
      tier++;
    }
    return tier;
  }

  static boolean isCompacted(PlannedFile file) {
    String name = file.location().substring(file.location().lastIndexOf('/') + 1);
    return name.startsWith(COMPACTED_PREFIX + "-");
  }

  private boolean shouldExpire(List<String> reasons) {
    Instant keepUntil =
        contract.setting(Settings.KEEP_SNAPSHOTS_UNTIL).map(Instant::parse).orElse(Instant.MIN);
    if (options.now().isBefore(keepUntil)) {
      reasons.add("expiry: held until " + keepUntil + " (keep-snapshots-until)");
      return false;
    }
    long expirable = ExpiryCutoff.of(table.iceberg(), contract, options.now()).expirable();
    int threshold = options.mode() == MaintenanceMode.INLINE ? EXPIRE_BATCH : 1;
    if (expirable >= threshold) {
      reasons.add("expiry: " + expirable + " snapshots can expire");
      return true;
    }
    return false;
  }

  private String setting(Setting setting) {
    String override = options.overrides().get(setting.name());
    return override != null ? override : contract.setting(setting).orElseThrow();
  }

  private String label(int partition) {
    return contract.isTimeSeries() ? contract.partitioning().label(partition) : "all";
  }

  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }
}

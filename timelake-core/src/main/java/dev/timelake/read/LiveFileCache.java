package dev.timelake.read;

import dev.timelake.index.IndexIntervals;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The live data files of each table's current snapshot, kept between plans. Planning through
 * Iceberg re-reads and re-decodes every manifest on each query (10–25 ms for a small table, most of
 * a point query's cost); a snapshot never changes, so its file list is kept under the table's uuid
 * and snapshot id. A newer snapshot that descends from the kept one (appends, compactions,
 * retention) is derived from the files its commits added and removed, reading only their manifests.
 * Files are then pruned in memory with the same evaluators Iceberg's own planning uses.
 */
final class LiveFileCache {
  /** Tables kept; the least recently planned is forgotten first. */
  private static final int TABLES = 128;

  /** Commits between the kept snapshot and the current one that are applied one by one. */
  private static final int MAX_STEPS = 64;

  private static final Map<String, Entry> ENTRIES =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
          return size() > TABLES;
        }
      };

  private LiveFileCache() {}

  /** A live data file with its planning view, not yet marked fresh. */
  record LiveFile(DataFile file, PlannedFile planned) {}

  /** A snapshot's live files and how many partitions they lie in. */
  private record Entry(long snapshotId, List<LiveFile> files, int partitions) {
    Entry(long snapshotId, List<LiveFile> files) {
      this(
          snapshotId,
          files,
          (int) files.stream().mapToInt(file -> file.planned().partition()).distinct().count());
    }
  }

  /**
   * The live files of {@code snapshot} that may hold rows matching {@code filter}, in commit order
   * (data sequence number, then location).
   */
  static List<PlannedFile> plannedFiles(
      Table iceberg, TableContract contract, Snapshot snapshot, Expression filter) {
    return pruned(iceberg, contract, snapshot, filter).files();
  }

  /** The files a filter keeps, and how many partitions the snapshot's live files lie in. */
  record Pruned(List<PlannedFile> files, int partitionsBeforePruning) {}

  /** {@link #plannedFiles}, with the partitions pruned from: one look into the cache. */
  static Pruned pruned(
      Table iceberg, TableContract contract, Snapshot snapshot, Expression filter) {
    Entry entry = entry(iceberg, contract, snapshot);
    List<LiveFile> live = entry.files();
    boolean everything = filter.op() == Expression.Operation.TRUE;
    InclusiveMetricsEvaluator metrics =
        everything ? null : new InclusiveMetricsEvaluator(iceberg.schema(), filter, true);
    Map<Integer, Evaluator> partitions = new HashMap<>();
    List<PlannedFile> files = new ArrayList<>(live.size());
    for (LiveFile file : live) {
      if (everything
          || (partitionMayMatch(iceberg, filter, partitions, file.file())
              && metrics.eval(file.file()))) {
        files.add(file.planned());
      }
    }
    return new Pruned(files, entry.partitions());
  }

  private static boolean partitionMayMatch(
      Table iceberg, Expression filter, Map<Integer, Evaluator> evaluators, DataFile file) {
    Evaluator evaluator =
        evaluators.computeIfAbsent(
            file.specId(),
            id -> {
              PartitionSpec spec = iceberg.specs().get(id);
              return new Evaluator(
                  spec.partitionType(), Projections.inclusive(spec, true).project(filter), true);
            });
    return evaluator.eval(file.partition());
  }

  private static Entry entry(Table iceberg, TableContract contract, Snapshot snapshot) {
    String key = key(iceberg, contract);
    Entry kept;
    synchronized (ENTRIES) {
      kept = ENTRIES.get(key);
    }
    if (kept != null && kept.snapshotId() == snapshot.snapshotId()) {
      return kept;
    }
    List<LiveFile> files = kept == null ? null : derived(iceberg, contract, snapshot, kept);
    if (files == null) {
      files = planned(iceberg, contract, snapshot);
    }
    Entry entry = new Entry(snapshot.snapshotId(), files);
    synchronized (ENTRIES) {
      ENTRIES.put(key, entry);
    }
    return entry;
  }

  /**
   * The uuid says which table (a dropped and re-created name is another); the ids which columns.
   */
  private static String key(Table iceberg, TableContract contract) {
    Fields fields = Fields.of(iceberg, contract);
    return iceberg.uuid()
        + "/"
        + (fields.time() == null ? -1 : fields.time().fieldId())
        + "/"
        + (fields.key() == null ? -1 : fields.key().fieldId())
        + "/"
        + (fields.ingest() == null ? -1 : fields.ingest().fieldId());
  }

  /**
   * The files of {@code snapshot} from those of the kept one, when the kept one is among its
   * ancestors within {@link #MAX_STEPS} commits; null otherwise (a rollback, a branch, a long gap).
   */
  private static List<LiveFile> derived(
      Table iceberg, TableContract contract, Snapshot snapshot, Entry kept) {
    List<Snapshot> steps = new ArrayList<>();
    Snapshot step = snapshot;
    while (step != null && step.snapshotId() != kept.snapshotId()) {
      if (steps.size() == MAX_STEPS || step.parentId() == null) {
        return null;
      }
      steps.add(step);
      step = iceberg.snapshot(step.parentId());
    }
    if (step == null) {
      return null;
    }
    Map<String, LiveFile> files = new LinkedHashMap<>();
    for (LiveFile file : kept.files()) {
      files.put(file.file().location(), file);
    }
    Fields fields = Fields.of(iceberg, contract);
    for (int i = steps.size() - 1; i >= 0; i--) {
      Snapshot commit = steps.get(i);
      for (DataFile removed : commit.removedDataFiles(iceberg.io())) {
        files.remove(removed.location());
      }
      for (DataFile added : commit.addedDataFiles(iceberg.io())) {
        if (added.dataSequenceNumber() == null) {
          return null;
        }
        files.put(added.location(), live(added.copy(), fields, commit));
      }
    }
    return sorted(new ArrayList<>(files.values()));
  }

  /** Every live file of {@code snapshot}, planned by Iceberg without the kept lists. */
  static List<LiveFile> planned(Table iceberg, TableContract contract, Snapshot snapshot) {
    Fields fields = Fields.of(iceberg, contract);
    // The commit that added a file has its file sequence number; an expired one is unknown.
    Map<Long, Snapshot> bySequence = new HashMap<>();
    for (Snapshot kept : iceberg.snapshots()) {
      bySequence.put(kept.sequenceNumber(), kept);
    }
    List<LiveFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        iceberg.newScan().useSnapshot(snapshot.snapshotId()).includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        Snapshot adder =
            file.fileSequenceNumber() == null ? null : bySequence.get(file.fileSequenceNumber());
        files.add(live(file.copy(), fields, adder));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sorted(files);
  }

  private static List<LiveFile> sorted(List<LiveFile> files) {
    files.sort(
        Comparator.comparingLong((LiveFile f) -> f.planned().sequenceNumber())
            .thenComparing(f -> f.planned().location()));
    return List.copyOf(files);
  }

  /** {@code adder} is the commit that added the file, when known. */
  private static LiveFile live(DataFile file, Fields fields, Snapshot adder) {
    long min = Long.MIN_VALUE;
    long max = Long.MAX_VALUE;
    if (fields.time() != null) {
      Long lower = bound(file.lowerBounds(), fields.time());
      Long upper = bound(file.upperBounds(), fields.time());
      min = lower == null ? Long.MIN_VALUE : lower;
      max = upper == null ? Long.MAX_VALUE : upper;
      if (fields.replacedWithin() != null && lower != null && upper != null) {
        // A row replaces the rows of its interval: the file's bounds are its intervals' bounds,
        // so that overlap, freshness and changed buckets see every row it may replace.
        IndexIntervals intervals = fields.replacedWithin();
        min = intervals.start(intervals.id(lower));
        long end = intervals.end(intervals.id(upper));
        max = end == Long.MAX_VALUE ? Long.MAX_VALUE - 1 : end - 1;
      }
    }
    Comparable<Object> minKey =
        fields.key() == null ? null : comparable(bound(file.lowerBounds(), fields.key()));
    Comparable<Object> maxKey =
        fields.key() == null ? null : comparable(bound(file.upperBounds(), fields.key()));
    Long ingestMax = fields.ingest() == null ? null : bound(file.upperBounds(), fields.ingest());
    long external =
        fields.ingest() != null && ExternalWrites.isExternalAppend(adder)
            ? ExternalWrites.commitMicros(adder)
            : Long.MIN_VALUE;
    if (external != Long.MIN_VALUE) {
      ingestMax = external; // its rows' insertion time is the commit's
    }
    int partition =
        file.partition().size() == 0
            ? 0
            : fields.partitioning().ordinalOf(file.partition().get(0, Object.class));
    PlannedFile planned =
        new PlannedFile(
            file.location(),
            partition,
            file.dataSequenceNumber() == null ? 0 : file.dataSequenceNumber(),
            file.recordCount(),
            file.fileSizeInBytes(),
            min,
            max,
            minKey,
            maxKey,
            ingestMax == null ? Long.MIN_VALUE : ingestMax,
            false,
            external);
    return new LiveFile(file, planned);
  }

  @SuppressWarnings("unchecked")
  private static <T> T bound(Map<Integer, ByteBuffer> bounds, Types.NestedField field) {
    if (bounds == null || !bounds.containsKey(field.fieldId())) {
      return null;
    }
    Type type = field.type();
    Object value = Conversions.fromByteBuffer(type, bounds.get(field.fieldId()));
    return (T) (value instanceof CharSequence text ? text.toString() : value);
  }

  @SuppressWarnings("unchecked")
  private static Comparable<Object> comparable(Object value) {
    return (Comparable<Object>) value;
  }

  /**
   * The time, first series-key and insertion-time columns, whose bounds plans use, and the index
   * intervals of a table whose rows replace the others of their interval (else null).
   */
  private record Fields(
      Types.NestedField time,
      Types.NestedField key,
      Types.NestedField ingest,
      IndexIntervals replacedWithin,
      dev.timelake.table.Partitioning partitioning) {
    static Fields of(Table iceberg, TableContract contract) {
      Types.NestedField time =
          contract.timeColumn().map(c -> iceberg.schema().findField(c)).orElse(null);
      Types.NestedField key =
          contract.seriesKey().isEmpty()
              ? null
              : iceberg.schema().findField(contract.seriesKey().get(0));
      Types.NestedField ingest =
          contract.ingestTimeColumn().map(c -> iceberg.schema().findField(c)).orElse(null);
      IndexIntervals intervals =
          contract.replacesWithinInterval() ? IndexIntervals.of(contract).orElseThrow() : null;
      return new Fields(time, key, ingest, intervals, contract.partitioning());
    }
  }
}

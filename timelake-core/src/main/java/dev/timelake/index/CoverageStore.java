package dev.timelake.index;

import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.BlobMetadata;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinReader;
import org.apache.iceberg.puffin.PuffinWriter;
import org.apache.iceberg.util.Pair;

/**
 * The coverage of a table's snapshots, kept as one Puffin statistics file per snapshot in the
 * table's metadata (blob type {@value #BLOB_TYPE}, bytes of {@link CoverageFormat}). The coverage
 * of a snapshot without one is derived from the nearest ancestor that has one plus the rows the
 * appends since then added; compaction keeps coverage; after a delete or an overwrite it is rebuilt
 * from the live data files. A missing or unreadable file is never trusted: it is derived again.
 */
public final class CoverageStore {
  /** The Puffin blob type of a coverage. */
  public static final String BLOB_TYPE = "timelake-index-coverage-v1";

  private final Table table;
  private final TableContract contract;
  private final EngineConnection connection;
  private final IntervalSql intervals;

  public CoverageStore(Table table, TableContract contract, EngineConnection connection) {
    this.table = table;
    this.contract = contract;
    this.connection = connection;
    this.intervals = new IntervalSql(contract);
  }

  public IntervalSql intervalSql() {
    return intervals;
  }

  /**
   * The coverage of {@code snapshot} (empty for none), derived and saved when no readable one is
   * stored.
   */
  public Coverage at(Snapshot snapshot) {
    if (snapshot == null) {
      return new Coverage();
    }
    Optional<Coverage> remembered = remembered(snapshot.snapshotId());
    if (remembered.isPresent()) {
      return remembered.get();
    }
    Optional<Coverage> stored = stored(snapshot.snapshotId());
    if (stored.isPresent()) {
      remember(snapshot.snapshotId(), stored.get());
      return stored.get();
    }
    Coverage coverage = derive(snapshot);
    save(snapshot, coverage);
    return coverage;
  }

  /**
   * After a commit that kept the rows' pairs (compaction, optimize) or removed some (retention):
   * derives the new snapshot's coverage from its ancestors and attaches it, so that it survives the
   * expiry of the snapshots it was derived from. Does nothing for a table without a granularity.
   */
  public static void attachTo(
      Table table, TableContract contract, EngineConnection connection, Snapshot snapshot) {
    if (snapshot != null && contract.hasIndexGranularity()) {
      new CoverageStore(table, contract, connection).at(snapshot);
    }
  }

  /** The coverage of {@code snapshot}, computed without the stored one of the snapshot itself. */
  private Coverage derive(Snapshot snapshot) {
    Deque<Snapshot> since = new ArrayDeque<>();
    Snapshot current = snapshot;
    Optional<Coverage> base = Optional.empty();
    while (current != null) {
      if (current != snapshot) {
        long ancestor = current.snapshotId();
        base = remembered(ancestor).or(() -> stored(ancestor));
        if (base.isPresent()) {
          break;
        }
      }
      String operation = current.operation();
      if (!DataOperations.APPEND.equals(operation)
          && !dev.timelake.table.SnapshotSummaries.keepsEveryRow(current)) {
        // A delete or an overwrite removed rows: what they covered is not known without data.
        return ofFiles(liveFiles(snapshot));
      }
      since.push(current);
      Long parent = current.parentId();
      if (parent == null) {
        break;
      }
      current = table.snapshot(parent);
      if (current == null) {
        // An ancestor expired before any coverage was stored: read the live files.
        return ofFiles(liveFiles(snapshot));
      }
    }
    Coverage coverage = new Coverage();
    base.ifPresent(coverage::addAll);
    for (Snapshot step : since) {
      if (DataOperations.APPEND.equals(step.operation())) {
        List<String> added = new ArrayList<>();
        step.addedDataFiles(table.io()).forEach(file -> added.add(file.location()));
        coverage.addAll(ofFiles(added));
      }
    }
    return coverage;
  }

  /** The coverage of the rows of the data files at {@code locations}. */
  public Coverage ofFiles(List<String> locations) {
    if (locations.isEmpty()) {
      return new Coverage();
    }
    List<String> paths = LakeFileIO.of(table.io()).localPaths(locations);
    return intervals
        .pairs(connection, "read_parquet(" + SqlText.literalList(paths) + ")")
        .coverage();
  }

  private List<String> liveFiles(Snapshot snapshot) {
    List<String> locations = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        locations.add(file.location());
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return locations;
  }

  /** The stored coverage of a snapshot, if one is attached and readable. */
  private Optional<Coverage> stored(long snapshotId) {
    for (StatisticsFile file : table.statisticsFiles()) {
      if (file.snapshotId() != snapshotId
          || file.blobMetadata().stream().noneMatch(b -> BLOB_TYPE.equals(b.type()))) {
        continue;
      }
      try (PuffinReader reader =
          Puffin.read(table.io().newInputFile(file.path()))
              .withFileSize(file.fileSizeInBytes())
              .withFooterSize(file.fileFooterSizeInBytes())
              .build()) {
        List<BlobMetadata> blobs =
            reader.fileMetadata().blobs().stream().filter(b -> BLOB_TYPE.equals(b.type())).toList();
        for (Pair<BlobMetadata, ByteBuffer> blob : reader.readAll(blobs)) {
          ByteBuffer data = blob.second();
          byte[] bytes = new byte[data.remaining()];
          data.get(bytes);
          return Optional.of(CoverageFormat.decode(bytes, !contract.seriesKey().isEmpty()));
        }
      } catch (IOException | RuntimeException e) {
        // Missing, truncated or corrupt: derive it again from data.
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * Attaches {@code coverage} to {@code snapshot} as a statistics file. Best effort: coverage is
   * derived from data, so a failure here only costs a later derivation.
   */
  public void save(Snapshot snapshot, Coverage coverage) {
    StatisticsFile file = null;
    try {
      List<StatisticsFile> replaced =
          table.statisticsFiles().stream()
              .filter(f -> f.snapshotId() == snapshot.snapshotId())
              .toList();
      file = write(snapshot, coverage);
      table.updateStatistics().setStatistics(file).commit();
      remember(snapshot.snapshotId(), coverage);
      // A snapshot has one statistics file; the one it replaces is no longer referenced.
      replaced.forEach(this::delete);
    } catch (RuntimeException e) {
      if (file != null) {
        delete(file);
      }
    }
  }

  /**
   * Writes {@code coverage} of {@code snapshot} (which may be a snapshot still to commit, staged in
   * a transaction) as a Puffin file, to attach in the same commit.
   */
  public StatisticsFile write(Snapshot snapshot, Coverage coverage) {
    String location =
        ((HasTableOperations) table)
            .operations()
            .metadataFileLocation(
                "timelake-coverage-" + snapshot.snapshotId() + "-" + UUID.randomUUID() + ".puffin");
    PuffinWriter writer =
        Puffin.write(table.io().newOutputFile(location)).createdBy("Timelake").build();
    try (writer) {
      writer.add(
          new Blob(
              BLOB_TYPE,
              List.of(table.schema().findField(contract.timeColumn().orElseThrow()).fieldId()),
              snapshot.snapshotId(),
              snapshot.sequenceNumber(),
              ByteBuffer.wrap(CoverageFormat.encode(coverage, !contract.seriesKey().isEmpty())),
              null,
              Map.of(
                  "index-granularity", intervals.intervals().width().toString(),
                  "entity-columns", String.join(",", contract.seriesKey()))));
    } catch (IOException e) {
      table.io().deleteFile(location);
      throw new java.io.UncheckedIOException(e);
    }
    return new GenericStatisticsFile(
        snapshot.snapshotId(),
        location,
        writer.fileSize(),
        writer.footerSize(),
        writer.writtenBlobsMetadata().stream().map(GenericBlobMetadata::from).toList());
  }

  /** Deletes a written statistics file that did not commit; orphan cleanup catches failures. */
  public void delete(StatisticsFile file) {
    try {
      table.io().deleteFile(file.path());
    } catch (RuntimeException ignored) {
      // Left for orphan cleanup.
    }
  }

  /**
   * Keeps the coverage of a committed snapshot in memory, so that the next append in this process
   * reads no file. A snapshot's coverage never changes, so entries never go stale.
   */
  public void remember(long snapshotId, Coverage coverage) {
    synchronized (RECENT) {
      RECENT.put(cacheKey(snapshotId), coverage);
    }
  }

  private Optional<Coverage> remembered(long snapshotId) {
    synchronized (RECENT) {
      return Optional.ofNullable(RECENT.get(cacheKey(snapshotId)));
    }
  }

  private String cacheKey(long snapshotId) {
    return table.uuid() + "/" + snapshotId;
  }

  /** Forgets every remembered coverage, so that the next read is from files (tests, benchmarks). */
  public static void forgetRemembered() {
    synchronized (RECENT) {
      RECENT.clear();
    }
  }

  /** The few coverages this process committed or read last; read-only once in. */
  private static final Map<String, Coverage> RECENT =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Coverage> eldest) {
          return size() > 8;
        }
      };
}

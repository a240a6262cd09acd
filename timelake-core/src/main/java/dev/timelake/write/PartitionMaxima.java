package dev.timelake.write;

import dev.timelake.table.TableContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/** The highest time each partition holds, from manifest bounds (no data is read). */
final class PartitionMaxima {
  private PartitionMaxima() {}

  /** Highest µs per partition ordinal, for partitions that may hold times in [min, max]. */
  static Map<Integer, Long> of(
      Table table, TableContract contract, long minMicros, long maxMicros) {
    if (!contract.replacesWithinInterval()) {
      // The live-file cache holds every file's time bounds already: no scan is planned per append
      // (planning one read every manifest again, most of a small append's time on a table that
      // is not yet compacted). A table whose rows replace those of their interval widens its
      // files' bounds there, so it plans its own scan below.
      Map<Integer, Long> maxima = new TreeMap<>();
      int first = contract.partitioning().ordinal(minMicros);
      int last = contract.partitioning().ordinal(maxMicros);
      for (dev.timelake.read.PlannedFile file :
          dev.timelake.read.ScanPlanner.liveFiles(table, contract)) {
        if (file.partition() >= first && file.partition() <= last) {
          maxima.merge(file.partition(), file.maxMicros(), Math::max);
        }
      }
      return maxima;
    }
    String column = contract.timeColumn().orElseThrow();
    Types.NestedField field = table.schema().findField(column);
    Map<Integer, Long> maxima = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .filter(
                Expressions.and(
                    Expressions.greaterThanOrEqual(column, startOfChunk(contract, minMicros)),
                    Expressions.lessThan(column, endOfChunk(contract, maxMicros))))
            .includeColumnStats()
            .planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        int partition = contract.partitioning().ordinalOf(file.partition().get(0, Object.class));
        ByteBuffer upper =
            file.upperBounds() == null ? null : file.upperBounds().get(field.fieldId());
        long max =
            upper == null ? Long.MAX_VALUE : Conversions.<Long>fromByteBuffer(field.type(), upper);
        maxima.merge(partition, max, Math::max);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return maxima;
  }

  private static long startOfChunk(TableContract contract, long micros) {
    return contract.partitioning().start(contract.partitioning().ordinal(micros));
  }

  private static long endOfChunk(TableContract contract, long micros) {
    return contract.partitioning().end(contract.partitioning().ordinal(micros));
  }
}

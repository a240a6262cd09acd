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

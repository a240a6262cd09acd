package dev.timelake.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An {@link ArrowReader} over batches held by the hot tier, one per request, each with the columns
 * its points filled: every batch is read with the union of their columns (in {@code order}), a
 * column a batch lacks read as nulls, a column the table no longer has (dropped by another process
 * since the write was answered) left out — as if the write had been committed when answered. The
 * batches stay the caller's (they are read, not moved, so a failed commit can read them again); the
 * null columns made here are closed with the reader.
 */
final class HeldBatchesReader extends ArrowReader {
  private final List<VectorSchemaRoot> batches;
  private final Schema schema;
  private final BufferAllocator allocator;
  private final List<FieldVector> made = new ArrayList<>();
  private final List<String> leftOut;
  private final boolean ownsBatches;
  private int next;

  /**
   * Reads {@code batches} with their columns in the order of {@code order} (the table's columns by
   * name); null columns are allocated from {@code allocator}.
   */
  HeldBatchesReader(List<VectorSchemaRoot> batches, List<String> order, BufferAllocator allocator) {
    this(batches, order, allocator, false);
  }

  /**
   * Like the other constructor; with {@code ownsBatches}, the batches are closed with the reader.
   */
  HeldBatchesReader(
      List<VectorSchemaRoot> batches,
      List<String> order,
      BufferAllocator allocator,
      boolean ownsBatches) {
    super(allocator);
    this.batches = batches;
    this.ownsBatches = ownsBatches;
    this.allocator = allocator;
    Map<String, Field> fields = new HashMap<>();
    for (VectorSchemaRoot batch : batches) {
      batch.getSchema().getFields().forEach(field -> fields.putIfAbsent(field.getName(), field));
    }
    List<Field> union = new ArrayList<>();
    for (String name : order) {
      Field field = fields.remove(name);
      if (field != null) {
        union.add(field);
      }
    }
    this.leftOut = fields.keySet().stream().sorted().toList();
    this.schema = new Schema(union);
  }

  @Override
  public boolean loadNextBatch() {
    if (next >= batches.size()) {
      return false;
    }
    VectorSchemaRoot batch = batches.get(next++);
    List<FieldVector> vectors = new ArrayList<>();
    for (Field field : schema.getFields()) {
      FieldVector vector = batch.getVector(field.getName());
      if (vector == null) {
        vector = field.createVector(allocator);
        vector.allocateNew();
        vector.setValueCount(batch.getRowCount()); // all null
        made.add(vector);
      }
      vectors.add(vector);
    }
    VectorSchemaRoot aligned = new VectorSchemaRoot(vectors);
    aligned.setRowCount(batch.getRowCount());
    try (ArrowRecordBatch record = new VectorUnloader(aligned).getRecordBatch()) {
      loadRecordBatch(record);
    }
    return true;
  }

  /** The batches' columns the table does not have, which are not read. */
  List<String> leftOut() {
    return leftOut;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    made.forEach(FieldVector::close);
    made.clear();
    if (ownsBatches) {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }
}

package dev.timelake;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** An {@link ArrowReader} over the one batch held by a caller's {@link VectorSchemaRoot}. */
final class SingleBatchReader extends ArrowReader {
  private final VectorSchemaRoot source;
  private boolean consumed;

  SingleBatchReader(VectorSchemaRoot source) {
    super(
        source.getFieldVectors().isEmpty()
            ? new org.apache.arrow.memory.RootAllocator()
            : source.getFieldVectors().get(0).getAllocator());
    this.source = source;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    if (consumed) {
      return false;
    }
    consumed = true;
    try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
      loadRecordBatch(batch);
    }
    return true;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() {
    return source.getSchema();
  }
}

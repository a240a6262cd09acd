package dev.timelake.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * Rows a session handed to the hot tier (an INSERT's constants, already in the table's types) as
 * the log keeps them: one Arrow IPC stream of one batch, read back as that batch at a restart.
 */
final class HeldRowsIpc {
  private HeldRowsIpc() {}

  /** {@code rows} as an Arrow IPC stream. */
  static byte[] bytes(VectorSchemaRoot rows) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256 + rows.getRowCount() * 32);
    try (ArrowStreamWriter writer = new ArrowStreamWriter(rows, null, Channels.newChannel(out))) {
      writer.start();
      writer.writeBatch();
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // writing to memory does not fail
    }
    return out.toByteArray();
  }

  /**
   * The batch of an IPC stream {@link #bytes} wrote, allocated from {@code allocator}; the caller
   * closes it.
   *
   * @throws IOException when the bytes are not such a stream
   */
  static VectorSchemaRoot read(byte[] body, BufferAllocator allocator) throws IOException {
    try (ArrowStreamReader reader =
        new ArrowStreamReader(new ByteArrayInputStream(body), allocator)) {
      VectorSchemaRoot read = reader.getVectorSchemaRoot();
      if (!reader.loadNextBatch()) {
        throw new IOException("the held rows' stream has no batch");
      }
      List<FieldVector> vectors = new ArrayList<>();
      try {
        for (FieldVector vector : read.getFieldVectors()) {
          var transfer = vector.getTransferPair(allocator);
          transfer.transfer();
          vectors.add((FieldVector) transfer.getTo());
        }
      } catch (RuntimeException e) {
        vectors.forEach(FieldVector::close);
        throw e;
      }
      VectorSchemaRoot rows = new VectorSchemaRoot(vectors);
      rows.setRowCount(read.getRowCount());
      return rows;
    }
  }
}

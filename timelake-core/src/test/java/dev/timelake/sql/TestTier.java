package dev.timelake.sql;

import dev.timelake.HeldWrites;
import dev.timelake.Lake;
import dev.timelake.TableName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A tier for tests of what a session hands to one: it keeps the batches it holds, their insertion
 * times set as a tier sets them (strictly increasing), and commits a table's batches as one append
 * when the session asks, as a tier's flush does; what it still holds when closed is committed.
 */
final class TestTier implements HeldWrites, AutoCloseable {
  private final Lake lake;
  private final BufferAllocator allocator = new RootAllocator();
  private final Map<TableName, List<VectorSchemaRoot>> batches = new LinkedHashMap<>();
  private final List<Integer> held = new ArrayList<>();
  private long lastMicros;

  TestTier(Lake lake) {
    this.lake = lake;
  }

  /** The row counts of the batches held so far, in order. */
  List<Integer> held() {
    return held;
  }

  @Override
  public BufferAllocator allocator() {
    return allocator;
  }

  @Override
  public void hold(TableName table, VectorSchemaRoot rows, Optional<String> ingest, String user) {
    held.add(rows.getRowCount());
    TimeStampMicroTZVector times = (TimeStampMicroTZVector) rows.getVector(ingest.orElseThrow());
    lastMicros = Math.max(lastMicros + 1, java.time.Instant.now().toEpochMilli() * 1000);
    for (int row = 0; row < rows.getRowCount(); row++) {
      times.set(row, lastMicros);
    }
    batches.computeIfAbsent(table, t -> new ArrayList<>()).add(rows);
  }

  @Override
  public void commitHeld() {
    for (TableName table : List.copyOf(batches.keySet())) {
      commitHeld(table);
    }
  }

  @Override
  public void commitHeld(TableName table) {
    List<VectorSchemaRoot> rows = batches.remove(table);
    if (rows == null) {
      return;
    }
    dev.timelake.Append append = lake.table(table).newAppend();
    rows.forEach(append::fromArrow);
    try {
      append.commit();
    } finally {
      rows.forEach(VectorSchemaRoot::close);
    }
  }

  @Override
  public void close() {
    try {
      commitHeld();
    } finally {
      allocator.close();
    }
  }
}

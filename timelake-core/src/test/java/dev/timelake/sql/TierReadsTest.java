package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.HeldRead;
import dev.timelake.HeldWrites;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * A session's queries read what its tier holds beside the committed rows, without committing it: a
 * held row is read as its commit will read it (a newer copy of a committed key wins), a query of a
 * table that keeps copies has the tier commit first, and the file made of the held rows is read
 * again by later queries while the tier holds the same rows, with a file of what it held since.
 */
class TierReadsTest extends WithLakeSession {
  @Test
  void queriesReadHeldRowsWithoutCommittingThemAndMakeTheirFileOncePerHeldRows() {
    createReadings();
    run(
        "INSERT INTO t.r VALUES ('a', '2026-01-01 00:00:00+00', 1), ('b', '2026-01-01 00:00:00+00', 2)");
    try (ReadableTier tier = new ReadableTier();
        Session tiered = lake.newSession().holdWritesIn(tier)) {
      tiered.sql("INSERT INTO t.r VALUES ('a', '2026-01-01 00:00:00+00', 10)").close();
      tiered.sql("INSERT INTO t.r VALUES ('c', '2026-01-01 00:00:00+00', 3)").close();
      assertThat(tier.held).hasSize(2);
      String query = "SELECT tag, value FROM t.r ORDER BY tag";
      List<List<Object>> expected =
          List.of(List.of("a", 10.0), List.of("b", 2.0), List.of("c", 3.0));
      assertThat(read(tiered, query)).isEqualTo(expected);
      assertThat(read(tiered, "SELECT sum(value) FROM t.r")).containsExactly(List.of(15.0));
      try (QueryResult result = tiered.sql(query)) {
        assertThat(result.plan().reads()).extracting(r -> r.heldFiles()).containsExactly(1);
      }
      assertThat(read(tiered, "EXPLAIN " + query).toString())
          .contains("1 file of rows not committed yet (a transaction's, a hot tier's)");
      assertThat(tier.committed).as("neither the queries nor EXPLAIN asked to commit").isZero();
      assertThat(tier.reads).as("one read of the same held rows").isEqualTo(1);
      assertThat(rows("SELECT count(*) FROM t.r"))
          .as("nothing committed")
          .containsExactly(List.of(2L));
      tiered.sql("INSERT INTO t.r VALUES ('c', '2026-01-01 00:00:00+00', 4)").close();
      assertThat(read(tiered, "SELECT sum(value) FROM t.r")).containsExactly(List.of(16.0));
      assertThat(tier.reads).as("read again once more is held").isEqualTo(2);
      assertThat(tier.given)
          .as("batches given: all, then only the one held since")
          .containsExactly(2, 1);
      try (QueryResult result = tiered.sql(query)) {
        assertThat(result.plan().reads()).extracting(r -> r.heldFiles()).containsExactly(2);
        assertThat(result.rows())
            .as("a held copy newer than another held one wins")
            .containsExactly(List.of("a", 10.0), List.of("b", 2.0), List.of("c", 4.0));
      }
    }
  }

  @Test
  void theFileOfHeldRowsIsMadeAgainOnceAnotherSessionChangesTheTable() {
    createReadings();
    try (ReadableTier tier = new ReadableTier();
        Session tiered = lake.newSession().holdWritesIn(tier)) {
      tiered.sql("INSERT INTO t.r VALUES ('a', '2026-01-01 00:00:00+00', 1)").close();
      assertThat(read(tiered, "SELECT tag, value FROM t.r")).containsExactly(List.of("a", 1.0));
      run("ALTER TABLE t.r ADD COLUMN note VARCHAR");
      assertThat(read(tiered, "SELECT tag, note FROM t.r"))
          .containsExactly(Arrays.asList("a", null));
      assertThat(tier.given).as("all of it, both times").containsExactly(1, 1);
    }
  }

  @Test
  void aSessionThatReadsCopiesAsTheyAreHasTheTierCommitFirst() {
    createReadings();
    try (ReadableTier tier = new ReadableTier();
        Session tiered = lake.newSession().holdWritesIn(tier)) {
      tiered.sql("INSERT INTO t.r VALUES ('a', '2026-01-01 00:00:00+00', 1)").close();
      tiered.sql("SET timelake.read_dedup = false").close();
      read(tiered, "SELECT count(*) FROM t.r");
      assertThat(tier.reads).as("a row read twice would count twice").isZero();
      assertThat(tier.committed).isEqualTo(1);
    }
  }

  @Test
  void aTableThatKeepsCopiesIsCommittedBeforeAQueryReadsIt() {
    run(
        "CREATE TABLE t.events (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'tag', dedup = false)");
    try (ReadableTier tier = new ReadableTier();
        Session tiered = lake.newSession().holdWritesIn(tier)) {
      tiered.sql("INSERT INTO t.events VALUES ('a', '2026-01-01 00:00:00+00', 1)").close();
      assertThat(read(tiered, "SELECT count(*) FROM t.events"))
          .as("asked to commit, not to lend (and this tier commits nothing)")
          .containsExactly(List.of(0L));
      assertThat(tier.reads).isZero();
      assertThat(tier.committed).isEqualTo(1);
    }
  }

  private void createReadings() {
    run(
        "CREATE TABLE t.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'tag')");
  }

  private static List<List<Object>> read(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  /**
   * A tier that keeps what it holds (its insertion times set, increasing) and lends it to queries,
   * counting the reads and the commits asked of it (which commit nothing: the rows stay held).
   */
  private static final class ReadableTier implements HeldWrites, AutoCloseable {
    private final BufferAllocator allocator = new RootAllocator();
    private final List<VectorSchemaRoot> held = new ArrayList<>();
    private long lastMicros;
    private int reads;
    private final List<Integer> given = new ArrayList<>();
    private int committed;

    @Override
    public BufferAllocator allocator() {
      return allocator;
    }

    @Override
    public void hold(TableName table, VectorSchemaRoot rows, Optional<String> ingest, String user) {
      TimeStampMicroTZVector times = (TimeStampMicroTZVector) rows.getVector(ingest.orElseThrow());
      lastMicros = Math.max(lastMicros + 1, System.currentTimeMillis() * 1000);
      for (int row = 0; row < rows.getRowCount(); row++) {
        times.set(row, lastMicros);
      }
      held.add(rows);
    }

    @Override
    public void commitHeld() {
      committed++;
    }

    @Override
    public void commitHeld(TableName table) {
      committed++;
    }

    @Override
    public Optional<HeldRead> readHeld(TableName table, Optional<String> since) {
      reads++;
      int from =
          since
              .filter(v -> v.startsWith("held "))
              .map(v -> Integer.parseInt(v.substring(5)))
              .orElse(0);
      given.add(held.size() - from);
      List<VectorSchemaRoot> slices = new ArrayList<>();
      held.subList(from, held.size())
          .forEach(batch -> slices.add(batch.slice(0, batch.getRowCount())));
      return Optional.of(
          new HeldRead(
              new BatchesReader(slices, held.get(0).getSchema(), allocator),
              slices.size(),
              "held " + held.size(),
              from > 0));
    }

    @Override
    public Optional<String> heldVersion(TableName table) {
      return Optional.of("held " + held.size());
    }

    @Override
    public void close() {
      held.forEach(VectorSchemaRoot::close);
      allocator.close();
    }
  }

  /** Reads batches of one schema, closing them with the reader. */
  private static final class BatchesReader extends ArrowReader {
    private final List<VectorSchemaRoot> batches;
    private final Schema schema;
    private int next;

    BatchesReader(List<VectorSchemaRoot> batches, Schema schema, BufferAllocator allocator) {
      super(allocator);
      this.batches = batches;
      this.schema = schema;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (next >= batches.size()) {
        return false;
      }
      try (ArrowRecordBatch batch = new VectorUnloader(batches.get(next++)).getRecordBatch()) {
        loadRecordBatch(batch);
      }
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {
      batches.forEach(VectorSchemaRoot::close);
    }

    @Override
    protected Schema readSchema() {
      return schema;
    }
  }
}

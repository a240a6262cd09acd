package dev.timelake.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TableDefinition;
import dev.timelake.TableName;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's group commit on a real lake: requests queued while the committer is held back are
 * committed as one append, a body sent again, in the same group or after it, appends nothing twice,
 * and a request the committers no longer take is told to come back. The table keeps every copy of a
 * row (dedup off), so an append of a body twice would show.
 */
class TableCommitQueueTest {
  private static final TableName TABLE = TableName.parse("iot.readings");

  @TempDir Path warehouse;
  private Lake lake;
  private final BufferAllocator allocator = new RootAllocator();
  private final ExecutorService committerThreads = Executors.newCachedThreadPool();
  private BackgroundMaintenance maintenance;

  /** Opened to let the committer start: until then, requests queue up behind it. */
  private final CountDownLatch committerMayStart = new CountDownLatch(1);

  private final Executor heldBackCommitters =
      task ->
          committerThreads.execute(
              () -> {
                try {
                  committerMayStart.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                task.run();
              });

  private TableCommitQueue queue;

  @BeforeEach
  void open() {
    lake = Lake.open(warehouse);
    lake.createTable(
        TableDefinition.builder(TABLE)
            .column(Column.required("time", ColumnType.TIMESTAMPTZ))
            .column(Column.nullable("value", ColumnType.DOUBLE))
            .timeColumn("time")
            .option("dedup", "false")
            .option("auto-maintain", "false") // no maintenance snapshots among the counted ones
            .build());
    maintenance = new BackgroundMaintenance(lake, "test-maintenance");
    queue = new TableCommitQueue(TABLE, lake, allocator, heldBackCommitters, maintenance);
  }

  @AfterEach
  void close() {
    committerMayStart.countDown();
    committerThreads.shutdownNow();
    maintenance.close();
    allocator.close();
    lake.close();
  }

  private static List<LineProtocol.Point> points(String body) {
    return LineProtocol.parse(body.getBytes(UTF_8), LineProtocol.Precision.SECONDS, 0L);
  }

  private static String digest(String body) {
    return TableCommitQueue.digest("iot", body.getBytes(UTF_8));
  }

  /** Commits {@code body} on a thread of its own, as a request's thread would. */
  private Thread send(String body) {
    Thread request = new Thread(() -> queue.commit(points(body), digest(body), "tl"), "request");
    request.start();
    return request;
  }

  /** Waits until every one of {@code requests} waits for its commit. */
  private static void awaitWaiting(List<Thread> requests) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!requests.stream().allMatch(thread -> thread.getState() == Thread.State.WAITING)) {
      assertThat(System.nanoTime()).as("requests waiting for their commit").isLessThan(deadline);
      Thread.sleep(10);
    }
  }

  private List<List<Object>> rows() {
    try (Session session = lake.newSession();
        QueryResult result =
            session.sql("SELECT epoch(time)::BIGINT, value FROM iot.readings ORDER BY 1")) {
      return result.rows();
    }
  }

  private int snapshots() {
    return lake.table(TABLE).info().snapshots().size();
  }

  @Test
  void requestsQueuedTogetherAreOneAppendAndABodySentTwiceIsWrittenOnce() throws Exception {
    String first = "readings value=1 1767225600\nreadings value=2 1767225660";
    String second = "readings value=3 1767225720";
    int before = snapshots();

    List<Thread> requests = new ArrayList<>();
    for (String body : List.of(first, second, first, first)) {
      requests.add(send(body));
    }
    awaitWaiting(requests);
    committerMayStart.countDown();
    for (Thread request : requests) {
      request.join(TimeUnit.SECONDS.toMillis(60));
      assertThat(request.isAlive()).isFalse();
    }

    assertThat(snapshots()).isEqualTo(before + 1);
    assertThat(rows())
        .containsExactly(
            List.of(1767225600L, 1.0), List.of(1767225660L, 2.0), List.of(1767225720L, 3.0));

    // Sent again after its group committed: answered without an append.
    queue.commit(points(first), digest(first), "tl");
    assertThat(snapshots()).isEqualTo(before + 1);
    assertThat(rows()).hasSize(3);
  }

  @Test
  void whenCommittersNoLongerTakeWorkTheRequestIsToldToComeBackAndNothingIsWritten() {
    ExecutorService stopped = Executors.newSingleThreadExecutor();
    stopped.shutdown();
    TableCommitQueue stopping = new TableCommitQueue(TABLE, lake, allocator, stopped, maintenance);
    String body = "readings value=1 1767225600";
    int before = snapshots();

    assertThatThrownBy(() -> stopping.commit(points(body), digest(body), "tl"))
        .isInstanceOf(LineProtocolWriter.Stopping.class)
        .hasCauseInstanceOf(java.util.concurrent.RejectedExecutionException.class);
    assertThat(snapshots()).isEqualTo(before);
    assertThat(rows()).isEmpty();
  }
}

package dev.timelake.maintain;

import static dev.timelake.maintain.MaintenanceFixture.ROWS;
import static dev.timelake.maintain.MaintenanceFixture.append;
import static dev.timelake.maintain.MaintenanceFixture.readings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.CommitFailedException;
import dev.timelake.CommitStateUnknownException;
import dev.timelake.ConflictException;
import dev.timelake.MaintenanceReport;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.catalog.Catalogs;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.maintain.FailingCatalog.Failure;
import dev.timelake.maintain.MaintenanceFixture.Row;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A maintenance run that fails part-way (a crash between rewrites, a failed commit, a concurrent
 * maintenance that replaced the same files) leaves the table unchanged and readable, and leaves no
 * new files behind; one whose commit reply is lost keeps the files it committed.
 */
class MaintenanceFailureTest {
  private static final String NAME = "iot.readings";
  private static final Instant DAY = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path warehouse;
  private MaintenanceFixture fixture;
  private Table table;
  private final LatestWrites oracle = new LatestWrites();

  @BeforeEach
  void createTableWithTwoPartitionsToCompact() {
    fixture = new MaintenanceFixture(warehouse);
    table = fixture.create(readings(NAME));
    for (int i = 0; i < 6; i++) {
      Instant day = DAY.plus(Duration.ofDays(i % 2));
      Instant time = day.plus(Duration.ofHours(i));
      List<Row> rows = List.of(new Row("a", time, (double) i), new Row("a", day, (double) -i));
      append(table, DAY, rows, oracle).withoutMaintenance().commit();
    }
  }

  @AfterEach
  void close() throws Exception {
    fixture.close();
  }

  @Test
  void crashBetweenRewritesLeavesTableUnchanged() {
    State before = state();

    assertThatThrownBy(
            maintainWithFault(
                message -> message.endsWith("(2 of 2)"),
                () -> {
                  throw new IllegalStateException("injected crash");
                }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("injected crash");

    assertThat(state()).isEqualTo(before);
  }

  @Test
  void failedCommitLeavesTableUnchanged() throws Exception {
    // Iceberg retries the failing commit as the table says (8 times), but 10 ms apart instead of
    // up to 2 s: the same path, without 9 s of backing off.
    fixture
        .iceberg(NAME)
        .updateProperties()
        .set(org.apache.iceberg.TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "10")
        .set(org.apache.iceberg.TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "10")
        .commit();
    State before = state();

    try (LakeCatalog failing = failingCatalog(Failure.BEFORE_COMMIT);
        EngineConnection connection = failing.engine().connect()) {
      LoadedTable loaded = failing.require(TableName.parse(NAME));
      MaintenancePlan plan = fullPlan(loaded);
      MaintenanceRunner runner = new MaintenanceRunner(loaded, connection, message -> {});

      assertThat(plan.rewrites()).hasSize(2);
      assertThatThrownBy(() -> runner.run(plan, Instant.now()))
          .isInstanceOf(ConflictException.class)
          .hasMessage(
              "Cannot commit maintenance of "
                  + NAME
                  + ": a concurrent commit changed the table first (injected commit failure); the"
                  + " table is unchanged, run maintain again");
    }

    assertThat(state()).isEqualTo(before);
  }

  @Test
  void lostCommitReplyKeepsTheCommittedFiles() throws Exception {
    long snapshotBefore = currentSnapshotId();

    try (LakeCatalog failing = failingCatalog(Failure.AFTER_COMMIT);
        EngineConnection connection = failing.engine().connect()) {
      LoadedTable loaded = failing.require(TableName.parse(NAME));
      MaintenanceRunner runner = new MaintenanceRunner(loaded, connection, message -> {});
      MaintenancePlan plan = fullPlan(loaded);

      assertThatThrownBy(() -> runner.run(plan, Instant.now()))
          .isInstanceOf(CommitStateUnknownException.class)
          .hasMessageStartingWith("Maintenance of " + NAME + " may or may not have committed");
    }

    assertThat(currentSnapshotId()).isNotEqualTo(snapshotBefore);
    fixture.dataFiles(NAME).forEach(file -> assertThat(Path.of(file.location())).exists());
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
  }

  @Test
  void maintenanceSkipsTheRewritesAnotherRunReplacedFirst() throws Exception {
    LoadedTable loaded = fixture.loaded(NAME);
    MaintenancePlan first = fullPlan(loaded);
    MaintenancePlan stale = fullPlan(loaded);
    try (EngineConnection connection = fixture.planning().engine().connect()) {
      new MaintenanceRunner(loaded, connection, message -> {}).run(first, Instant.now());
      long snapshot = currentSnapshotId();
      Set<String> files = fixture.filesOnDisk(NAME);

      MaintenanceReport report =
          new MaintenanceRunner(fixture.loaded(NAME), connection, message -> {})
              .run(stale, Instant.now());

      assertThat(report.partitionsRewritten()).isZero();
      assertThat(report.explanation())
          .contains(
              "skipped the rewrite of partition 2026-01-01: a concurrent commit replaced its files"
                  + " first; a later run picks it up");
      assertThat(currentSnapshotId()).isEqualTo(snapshot);
      assertThat(fixture.filesOnDisk(NAME)).isEqualTo(files); // its own files deleted again
      assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
    }
  }

  /**
   * A writer's inline compaction replaces the files a full run is rewriting, between the run's
   * writing and its commit: the run leaves those rewrites out and completes.
   */
  @Test
  void aRunWhoseFilesAConcurrentCompactionReplacedCompletes() {
    java.util.concurrent.atomic.AtomicBoolean raced =
        new java.util.concurrent.atomic.AtomicBoolean();

    MaintenanceReport report =
        table
            .newMaintenance()
            .progress(
                message -> {
                  if (message.startsWith("committing") && !raced.getAndSet(true)) {
                    fixture.lake.table(NAME).newMaintenance().run();
                  }
                })
            .run();

    assertThat(raced).isTrue();
    assertThat(report.explanation())
        .anyMatch(line -> line.startsWith("skipped the rewrite of partition 2026-01-0"));
    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
    assertThat(fixture.dataFiles(NAME)).hasSize(2);
  }

  /** A distributed maintenance commits its plan whole or not at all. */
  @Test
  void distributedCommitOfFilesAnotherRunReplacedFails() throws Exception {
    LoadedTable loaded = fixture.loaded(NAME);
    MaintenancePlan first = fullPlan(loaded);
    MaintenancePlan stale = fullPlan(loaded);
    String replaced = stale.rewrites().get(0).files().get(0).location();
    try (EngineConnection connection = fixture.planning().engine().connect()) {
      MaintenanceRunner staleRunner = new MaintenanceRunner(loaded, connection, message -> {});
      Map<Rewrite, List<String>> written = new java.util.LinkedHashMap<>();
      for (Rewrite rewrite : stale.rewrites()) {
        written.put(rewrite, staleRunner.write(rewrite));
      }
      new MaintenanceRunner(loaded, connection, message -> {}).run(first, Instant.now());
      State afterFirst = state();
      MaintenanceRunner runner =
          new MaintenanceRunner(fixture.loaded(NAME), connection, message -> {});

      assertThatThrownBy(() -> runner.commit(stale, Instant.now(), written, System.nanoTime()))
          .isInstanceOf(ConflictException.class)
          .hasMessage(
              "Cannot commit maintenance of "
                  + NAME
                  + ": data file "
                  + replaced
                  + " was replaced by a concurrent commit; the table is unchanged, run maintain"
                  + " again");

      State after = state();
      assertThat(after.snapshotId()).isEqualTo(afterFirst.snapshotId());
      assertThat(after.rows()).isEqualTo(afterFirst.rows());
      // Its own written files are deleted again; nothing else changed on disk.
      Set<String> expected = new java.util.TreeSet<>(afterFirst.files());
      written.values().forEach(expected::removeAll);
      assertThat(after.files()).isEqualTo(expected);
    }
  }

  /**
   * The cause of a data loss seen through psycopg2: a rewrite run on a connection with an open
   * transaction, where a temporary table's row ids do not start at 0. Every row stays.
   */
  @Test
  void rewriteOnAConnectionInsideATransactionKeepsEveryRow() {
    LoadedTable loaded = fixture.loaded(NAME);
    try (EngineConnection connection = fixture.planning().engine().connect()) {
      connection.execute("BEGIN TRANSACTION");
      new MaintenanceRunner(loaded, connection, message -> {}).run(fullPlan(loaded), Instant.now());
      connection.execute("COMMIT");
    }

    assertThat(fixture.query(ROWS.formatted(NAME))).isEqualTo(oracle.rows());
    assertThat(fixture.dataFiles(NAME)).hasSize(2);
  }

  /**
   * Whatever makes a rewrite's result wrong, it is not committed: here the written files are
   * emptied between writing and committing, through the progress seam the crash tests use.
   */
  @Test
  void rewriteWhoseFilesLostTheirRowsIsNotCommitted() {
    State before = state();

    assertThatThrownBy(
            maintainWithFault(
                message -> message.startsWith("committing"),
                () -> emptyFilesWrittenSince(before.files())))
        .isInstanceOf(CommitFailedException.class)
        .hasMessageStartingWith("Cannot commit the rewrite of " + NAME + " partition 2026-01-01:")
        .hasMessageContaining("the files written to replace them hold 0; nothing was committed");

    assertThat(state()).isEqualTo(before);
  }

  /** A maintenance run that injects {@code fault} when its progress reports {@code at}. */
  private org.assertj.core.api.ThrowableAssert.ThrowingCallable maintainWithFault(
      java.util.function.Predicate<String> at, Runnable fault) {
    return () ->
        table
            .newMaintenance()
            .progress(
                message -> {
                  if (at.test(message)) {
                    fault.run();
                  }
                })
            .run();
  }

  /** Replaces every data file not in {@code existing} by an empty file of the same schema. */
  private void emptyFilesWrittenSince(Set<String> existing) {
    try (java.sql.Connection duckdb = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement statement = duckdb.createStatement()) {
      for (String file : fixture.filesOnDisk(NAME)) {
        if (existing.contains(file) || !file.endsWith(".parquet")) {
          continue;
        }
        Path path = Path.of(file);
        Path empty = path.resolveSibling("empty.tmp");
        statement.execute(
            "COPY (SELECT * FROM read_parquet('"
                + path
                + "') WHERE false) TO '"
                + empty
                + "' (FORMAT parquet)");
        java.nio.file.Files.move(empty, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (java.sql.SQLException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What must not change: the snapshot, the files on disk and the answers. */
  private record State(long snapshotId, Set<String> files, List<String> rows) {}

  private State state() {
    List<String> rows = fixture.query(ROWS.formatted(NAME));
    assertThat(rows).isEqualTo(oracle.rows());
    return new State(currentSnapshotId(), fixture.filesOnDisk(NAME), rows);
  }

  private long currentSnapshotId() {
    return fixture.iceberg(NAME).currentSnapshot().snapshotId();
  }

  private LakeCatalog failingCatalog(Failure failure) {
    FailingCatalog catalog = new FailingCatalog(Catalogs.openEmbedded(warehouse));
    catalog.failCommits(failure);
    return new LakeCatalog(catalog, "failing catalog", warehouse.resolve(".failing-tmp"));
  }

  private static MaintenancePlan fullPlan(LoadedTable table) {
    return MaintenancePlanner.plan(
        table,
        new MaintenanceOptions(MaintenanceMode.FULL, Instant.now(), Set.of(), Map.of(), Map.of()));
  }
}

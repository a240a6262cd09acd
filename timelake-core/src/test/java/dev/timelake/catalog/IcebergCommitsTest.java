package dev.timelake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.CommitFailedException;
import dev.timelake.CommitStateUnknownException;
import dev.timelake.ConflictException;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.IcebergCommits.Operation;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one mapping of Iceberg's commit failures: what is thrown, and when the clean-up runs. */
class IcebergCommitsTest {
  private static final Operation APPEND =
      Operation.onTable("append to iot.readings", "retry the append");
  private final AtomicInteger cleanUps = new AtomicInteger();

  @Test
  void anUnknownOutcomeKeepsWhatWasWritten() {
    assertThatThrownBy(
            () ->
                IcebergCommits.commit(
                    APPEND,
                    () -> {
                      throw new org.apache.iceberg.exceptions.CommitStateUnknownException(
                          new RuntimeException("reply lost"));
                    },
                    cleanUps::incrementAndGet))
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageStartingWith(
            "Append to iot.readings may or may not have committed; what it wrote was kept. Check"
                + " the table's snapshots before you retry the append: ")
        .hasMessageContaining("reply lost");
    assertThat(cleanUps).hasValue(0);
  }

  @Test
  void aConcurrentCommitIsAConflictAfterTheCleanUp() {
    assertThatThrownBy(
            () ->
                IcebergCommits.commit(
                    new Operation("refresh of rollup iot.r_1h", "rollup", "refresh again"),
                    () -> {
                      throw new org.apache.iceberg.exceptions.CommitFailedException(
                          "metadata location changed");
                    },
                    cleanUps::incrementAndGet))
        .isInstanceOf(ConflictException.class)
        .hasMessage(
            "Cannot commit refresh of rollup iot.r_1h: a concurrent commit changed the rollup first"
                + " (metadata location changed); the rollup is unchanged, refresh again");
    assertThatThrownBy(
            () ->
                IcebergCommits.commit(
                    APPEND,
                    () -> {
                      throw new org.apache.iceberg.exceptions.ValidationException(
                          "Found conflicting files");
                    },
                    cleanUps::incrementAndGet))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(
            "(Found conflicting files); the table is unchanged, retry the append");
    assertThat(cleanUps).hasValue(2);
  }

  @Test
  void timelakesOwnChecksPassAndOtherFailuresAreCommitFailures() {
    TimelakeException own = TimelakeException.validation("a check of its own");
    assertThatThrownBy(
            () ->
                IcebergCommits.commit(
                    APPEND,
                    () -> {
                      throw own;
                    },
                    cleanUps::incrementAndGet))
        .isSameAs(own);
    assertThatThrownBy(
            () ->
                IcebergCommits.commit(
                    APPEND,
                    () -> {
                      throw new IllegalStateException("disk full");
                    },
                    () -> {
                      cleanUps.incrementAndGet();
                      throw new IllegalStateException("cannot delete");
                    }))
        .isInstanceOf(CommitFailedException.class)
        .hasMessage(
            "Cannot commit append to iot.readings: disk full; the table is unchanged, retry the"
                + " append")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .hasFieldOrPropertyWithValue("message", "cannot delete"));
    assertThat(cleanUps).hasValue(2);
  }

  @Test
  void aSuccessfulCommitReturnsItsValueWithoutCleanUp() {
    assertThat(IcebergCommits.commit(APPEND, () -> 42, cleanUps::incrementAndGet)).isEqualTo(42);
    assertThat(cleanUps).hasValue(0);
  }
}

package dev.timelake.maintain;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.CommitFailedException;
import dev.timelake.TableName;
import org.junit.jupiter.api.Test;

/** The rules a rewrite's result must obey against its input before it may replace it. */
class RewriteCountsTest {
  private static final TableName TABLE = TableName.parse("iot.readings");

  @Test
  void acceptsARewriteThatDropsOnlyCopies() {
    assertThatCode(() -> new RewriteCounts(10, 7, 7, 7).verify(TABLE, "2026-01-01", true, 3))
        .doesNotThrowAnyException();
    assertThatCode(() -> new RewriteCounts(10, 7, 10, 7).verify(TABLE, "2026-01-01", false, 3))
        .doesNotThrowAnyException();
    assertThatCode(() -> new RewriteCounts(0, 0, 0, 0).verify(TABLE, "2026-01-01", true, 1))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesAnEmptyResult() {
    assertThatThrownBy(
            () -> new RewriteCounts(1441, 1441, 0, 0).verify(TABLE, "2026-01-01", true, 2))
        .isInstanceOf(CommitFailedException.class)
        .hasMessage(
            "Cannot commit the rewrite of iot.readings partition 2026-01-01: it read 1441 rows"
                + " with 1441 distinct keys from 2 files, but its result has 0 rows with 0"
                + " distinct keys (a rewrite may only drop copies of a key); nothing was committed"
                + " and the 2 files stay as they are. This is a bug in Timelake: please report it"
                + " with the table's snapshot history (timelake info iot.readings)");
  }

  @Test
  void refusesAResultMissingKeysOrHoldingCopiesOrExtraRows() {
    // A key lost while the row count still looks plausible.
    assertRefused(new RewriteCounts(10, 7, 7, 6), true);
    // Copies left although the table removes them.
    assertRefused(new RewriteCounts(10, 7, 8, 7), true);
    // Rows dropped although the table keeps copies.
    assertRefused(new RewriteCounts(10, 7, 7, 7), false);
    // Rows invented.
    assertRefused(new RewriteCounts(10, 7, 11, 7), false);
  }

  @Test
  void refusesCommittedFilesWithoutRowsOrWithMoreThanTheInput() {
    assertThatThrownBy(() -> RewriteCounts.verifyCommitted(TABLE, "2026-01-01", 6, 0, 3))
        .isInstanceOf(CommitFailedException.class)
        .hasMessage(
            "Cannot commit the rewrite of iot.readings partition 2026-01-01: its 3 input files"
                + " hold 6 rows but the files written to replace them hold 0; nothing was"
                + " committed and the input files stay as they are");
    assertThatThrownBy(() -> RewriteCounts.verifyCommitted(TABLE, "2026-01-01", 6, 7, 3))
        .isInstanceOf(CommitFailedException.class);
    assertThatCode(() -> RewriteCounts.verifyCommitted(TABLE, "2026-01-01", 6, 4, 3))
        .doesNotThrowAnyException();
  }

  private static void assertRefused(RewriteCounts counts, boolean deduplicates) {
    assertThatThrownBy(() -> counts.verify(TABLE, "2026-01-01", deduplicates, 2))
        .as(counts.toString())
        .isInstanceOf(CommitFailedException.class)
        .hasMessageContaining("a rewrite may only drop copies of a key");
  }
}

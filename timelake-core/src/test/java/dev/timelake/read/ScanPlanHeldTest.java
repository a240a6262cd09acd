package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.TestContracts;
import dev.timelake.table.TableContract;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Held files (a transaction's or a tier's rows) join one deduplicated group with the committed
 * files whose time range meets theirs, the files a held row can share its key with; other files
 * keep their place, and without dedup every file is read as it is.
 */
class ScanPlanHeldTest {
  @TempDir Path warehouse;

  private static final PlannedFile A = file("a", 1, 0, 10);
  private static final PlannedFile B = file("b", 2, 20, 30);
  private static final PlannedFile C = file("c", 3, 40, 50);
  private static final PlannedFile D = file("d", 4, 45, 55);

  private ScanPlan plan(boolean dedup) {
    TableContract contract =
        TestContracts.created(
            warehouse,
            "t.r",
            "(tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                + " WITH (time_column = 'time', series_key = 'tag')");
    return new ScanPlan(contract, 1, List.of(A, B), List.of(List.of(C, D)), 4, 1, dedup);
  }

  @Test
  void heldRowsJoinTheFilesWhoseTimesMeetTheirs() {
    PlannedFile held = held(25, 42);
    ScanPlan read = plan(true).withHeld(List.of(held));
    assertThat(read.independent()).containsExactly(A);
    assertThat(read.overlapping()).containsExactly(List.of(held, B, C, D));
    assertThat(read.fileCount()).isEqualTo(5);
  }

  @Test
  void heldRowsOfOtherTimesLeaveEveryFileInItsPlace() {
    PlannedFile held = held(100, 110);
    ScanPlan read = plan(true).withHeld(List.of(held));
    assertThat(read.independent()).containsExactly(A, B);
    assertThat(read.overlapping()).containsExactly(List.of(C, D), List.of(held));
  }

  @Test
  void heldRowsOfUnknownTimesJoinEveryFile() {
    PlannedFile held = held(Long.MIN_VALUE, Long.MAX_VALUE);
    ScanPlan read = plan(true).withHeld(List.of(held));
    assertThat(read.independent()).isEmpty();
    assertThat(read.overlapping()).containsExactly(List.of(held, A, B, C, D));
  }

  @Test
  void withoutDedupEveryFileIsReadAsItIs() {
    PlannedFile held = held(25, 42);
    ScanPlan read = plan(false).withHeld(List.of(held));
    assertThat(read.independent()).containsExactly(A, B, C, D, held);
    assertThat(read.overlapping()).isEmpty();
  }

  private static PlannedFile held(long min, long max) {
    return file("held", PlannedFile.HELD_SEQUENCE, min, max);
  }

  private static PlannedFile file(String name, long sequence, long min, long max) {
    return new PlannedFile(
        name, 0, sequence, 1, 1, min, max, null, null, Long.MIN_VALUE, false, Long.MIN_VALUE);
  }
}

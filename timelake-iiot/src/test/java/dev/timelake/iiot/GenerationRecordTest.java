package dev.timelake.iiot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A generation record keeps the load figure of a plant across re-runs and resumed runs. */
class GenerationRecordTest {
  @TempDir Path warehouse;

  private static GenerationRecord record(long readings, int appended, int skipped, long seconds) {
    return new GenerationRecord(
        Scale.TINY,
        42,
        24,
        new GenerationResult(readings, appended, skipped, 0, Duration.ofSeconds(seconds)));
  }

  @Test
  void aRerunOnACompleteWarehouseKeepsTheOriginalFigure() {
    record(1_000, 24, 0, 5).update(warehouse);
    record(0, 0, 24, 0).update(warehouse);
    assertThat(GenerationRecord.read(warehouse)).contains(record(1_000, 24, 0, 5));
  }

  @Test
  void aResumedGenerationAddsItsHours() {
    record(400, 10, 0, 2).update(warehouse);
    record(600, 14, 10, 3).update(warehouse);
    assertThat(GenerationRecord.read(warehouse)).contains(record(1_000, 24, 0, 5));
  }

  @Test
  void anotherPlantReplacesTheRecord() {
    record(400, 10, 0, 2).update(warehouse);
    GenerationRecord other =
        new GenerationRecord(
            Scale.TINY, 7, 24, new GenerationResult(900, 24, 0, 0, Duration.ofSeconds(4)));
    other.update(warehouse);
    assertThat(GenerationRecord.read(warehouse)).contains(other);
  }
}

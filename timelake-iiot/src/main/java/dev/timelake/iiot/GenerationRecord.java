package dev.timelake.iiot;

import static java.util.Objects.requireNonNull;

import dev.timelake.TimelakeException;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/**
 * What generated a warehouse's plant, kept beside the lake ({@value #FILE_NAME} in the warehouse
 * folder) so that a benchmark run on a lake generated earlier can still report the bulk load rate.
 *
 * @param scale the plant's scale
 * @param seed the generator's seed
 * @param hours hours generated
 * @param result what the generation did
 */
public record GenerationRecord(Scale scale, long seed, int hours, GenerationResult result) {
  /** The file in the warehouse folder. */
  public static final String FILE_NAME = "iiot-generation.properties";

  public GenerationRecord {
    requireNonNull(scale, "scale is null");
    requireNonNull(result, "result is null");
  }

  /** Writes this record into {@code warehouse}, replacing an earlier one. */
  public void write(Path warehouse) {
    Properties properties = new Properties();
    properties.setProperty("scale", scale.label());
    properties.setProperty("seed", Long.toString(seed));
    properties.setProperty("hours", Integer.toString(hours));
    properties.setProperty("readings", Long.toString(result.readings()));
    properties.setProperty("hours-appended", Integer.toString(result.hoursAppended()));
    properties.setProperty("hours-skipped", Integer.toString(result.hoursSkipped()));
    properties.setProperty("copies-dropped", Long.toString(result.copiesDropped()));
    properties.setProperty("elapsed-ms", Long.toString(result.elapsed().toMillis()));
    Path file = warehouse.resolve(FILE_NAME);
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(writer, "IIoT plant generated into this warehouse");
    } catch (IOException e) {
      throw TimelakeException.validation("Cannot write %s: %s", file, e.getMessage());
    }
  }

  /**
   * What the warehouse's record should say after this generation, given the {@code earlier} record:
   * a generation that resumed the same plant (same scale and seed) adds its hours, readings and
   * time to the earlier ones, so that a re-run on a complete warehouse (nothing appended) keeps the
   * original load figure instead of "0 readings/s".
   */
  GenerationRecord after(Optional<GenerationRecord> earlier) {
    if (earlier.isEmpty() || earlier.get().scale() != scale || earlier.get().seed() != seed) {
      return this;
    }
    GenerationResult before = earlier.get().result();
    if (result.hoursAppended() == 0) {
      return earlier.get();
    }
    GenerationResult sum =
        new GenerationResult(
            before.readings() + result.readings(),
            before.hoursAppended() + result.hoursAppended(),
            before.hoursSkipped(),
            before.copiesDropped() + result.copiesDropped(),
            before.elapsed().plus(result.elapsed()));
    return new GenerationRecord(scale, seed, hours, sum);
  }

  /** Writes what the record should say after this generation ({@link #after}) into warehouse. */
  public void update(Path warehouse) {
    after(read(warehouse)).write(warehouse);
  }

  /** The record in {@code warehouse}, if a generation wrote one and it can be read. */
  public static Optional<GenerationRecord> read(Path warehouse) {
    Path file = warehouse.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
      GenerationResult result =
          new GenerationResult(
              Long.parseLong(properties.getProperty("readings")),
              Integer.parseInt(properties.getProperty("hours-appended")),
              Integer.parseInt(properties.getProperty("hours-skipped")),
              Long.parseLong(properties.getProperty("copies-dropped")),
              Duration.ofMillis(Long.parseLong(properties.getProperty("elapsed-ms"))));
      return Optional.of(
          new GenerationRecord(
              Scale.parse(properties.getProperty("scale")),
              Long.parseLong(properties.getProperty("seed")),
              Integer.parseInt(properties.getProperty("hours")),
              result));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}

package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.TableName;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a server's hot tier held when it last said so: written beside its log about once a second
 * while it holds rows (and when it empties), so that another process ({@code timelake info}) can
 * tell how much acknowledged data is not yet in the table and how old it is.
 *
 * @param at when the tier wrote it
 * @param rows rows held in all
 * @param logBytes bytes of log on disk
 * @param tables per table: rows held and how old the oldest is
 */
public record HotTierStatus(
    Instant at, long rows, long logBytes, Map<TableName, TableHeld> tables) {
  private static final String FILE = "status.properties";

  public HotTierStatus {
    tables = Map.copyOf(tables);
  }

  /** One table's held rows and the age of the oldest, when the status was written. */
  public record TableHeld(long rows, Duration oldest) {}

  /** The status the tier of {@code lake}'s server last wrote, if one did. */
  public static Optional<HotTierStatus> read(Lake lake) {
    Path file = HotTier.folder(lake).resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
      Map<TableName, TableHeld> tables = new TreeMap<>();
      for (String key : properties.stringPropertyNames()) {
        if (key.startsWith("table.")) {
          String[] value = properties.getProperty(key).split(",");
          tables.put(
              TableName.parse(key.substring("table.".length())),
              new TableHeld(Long.parseLong(value[0]), Duration.ofMillis(Long.parseLong(value[1]))));
        }
      }
      return Optional.of(
          new HotTierStatus(
              Instant.ofEpochMilli(Long.parseLong(properties.getProperty("at"))),
              Long.parseLong(properties.getProperty("rows")),
              Long.parseLong(properties.getProperty("log-bytes")),
              tables));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // being replaced, or not one this version wrote
    }
  }

  /** Writes this status to {@code folder}, replacing the last one whole. */
  void write(Path folder) throws IOException {
    Properties properties = new Properties();
    properties.setProperty("at", Long.toString(at.toEpochMilli()));
    properties.setProperty("rows", Long.toString(rows));
    properties.setProperty("log-bytes", Long.toString(logBytes));
    tables.forEach(
        (name, held) ->
            properties.setProperty("table." + name, held.rows() + "," + held.oldest().toMillis()));
    Path temporary = folder.resolve(FILE + ".new");
    try (Writer out = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
      properties.store(out, "what this server's hot tier holds");
    }
    try {
      Files.move(
          temporary,
          folder.resolve(FILE),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, folder.resolve(FILE), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}

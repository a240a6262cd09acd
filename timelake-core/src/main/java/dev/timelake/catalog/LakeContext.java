package dev.timelake.catalog;

import dev.timelake.TimelakeException;
import dev.timelake.engine.Engine;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a lake's process holds beside its catalog: the DuckDB engine (started on first use), the
 * engine's temporary folder, and the query heat of this process's reads. Thread-safe.
 */
public final class LakeContext implements AutoCloseable {
  private final Path tempDirectory;
  private final QueryHeat heat = new QueryHeat();
  private Engine engine;
  private boolean confined;

  LakeContext(Path tempDirectory) {
    this.tempDirectory = tempDirectory;
  }

  /** The engine's temporary folder, which it may read and write even when confined. */
  public Path tempDirectory() {
    return tempDirectory;
  }

  /** How often this process's queries read each partition. */
  public QueryHeat heat() {
    return heat;
  }

  /** The DuckDB engine, started on first use. */
  public synchronized Engine engine() {
    if (engine == null) {
      try {
        Files.createDirectories(tempDirectory);
      } catch (IOException e) {
        throw TimelakeException.validation(
            "Cannot create the engine's temporary folder %s: %s", tempDirectory, e.getMessage());
      }
      engine = Engine.start(tempDirectory.toString());
    }
    return engine;
  }

  /**
   * Confines DuckDB's file access to {@code directories} (and the engine's temporary folder) for
   * the rest of the engine's life: every other file, extension installs and ATTACH are refused with
   * DuckDB's permission error. For servers, whose clients must not read or write other files.
   */
  public synchronized void confineFileAccess(List<Path> directories) {
    if (confined) {
      return; // for good: DuckDB allows no change once external access is off
    }
    List<String> allowed = new ArrayList<>();
    for (Path directory : directories) {
      allowed.add(directory.toAbsolutePath().normalize() + java.io.File.separator);
    }
    allowed.add(tempDirectory.toAbsolutePath().normalize() + java.io.File.separator);
    try (EngineConnection connection = engine().connect()) {
      connection.execute("SET allowed_directories = " + SqlText.literalList(allowed));
      connection.execute("SET enable_external_access = false");
    }
    confined = true;
  }

  /** Stops the engine, if it was started; a later {@link #engine()} starts a new one. */
  @Override
  public synchronized void close() {
    if (engine != null) {
      engine.close();
      engine = null;
    }
  }
}

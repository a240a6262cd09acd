package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * What one {@link RefreshTask} wrote: its window's rows, in the Parquet file at {@code location}.
 *
 * @param window the window's number, from 0
 * @param location the file the rows were written to
 */
public record RefreshResult(int window, String location) implements Serializable {
  public RefreshResult {
    requireNonNull(location, "location is null");
  }
}

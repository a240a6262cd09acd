package dev.timelake;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Rows a tier holds of a table, lent to a query (see {@link HeldWrites#readHeld}).
 *
 * @param rows the rows, in the table's column order with their insertion times; the caller closes
 *     the reader
 * @param batches how many batches {@code rows} reads (0: none)
 * @param version what the tier names the rows it holds of the table after this read (see {@link
 *     HeldWrites#heldVersion})
 * @param addedOnly true when {@code rows} are only those held since the read named by the {@code
 *     since} given, which the tier still holds; false when they are all it holds
 */
public record HeldRead(ArrowReader rows, int batches, String version, boolean addedOnly) {
  public HeldRead {
    requireNonNull(rows, "rows is null");
    requireNonNull(version, "version is null");
  }
}

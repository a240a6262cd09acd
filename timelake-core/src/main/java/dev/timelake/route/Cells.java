package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import java.util.List;
import net.sf.jsqlparser.statement.select.Select;

/**
 * The (keys…, bucket) cells a refresh recomputes: a relation with the query's key columns and the
 * bucket start in µs since 1970 (named {@link #BUCKET}), each part keeping only rows whose cell it
 * lists. Rows of one cell are all kept or all dropped, so dedup and aggregation stay exact.
 */
public record Cells(List<String> keys, Select relation) {
  /** The column of {@code relation} holding a cell's bucket start in µs. */
  public static final String BUCKET = "__tl_cell";

  public Cells {
    keys = List.copyOf(keys);
    requireNonNull(relation, "relation is null");
  }
}

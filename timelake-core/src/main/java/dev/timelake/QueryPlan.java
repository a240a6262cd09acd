package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What Timelake decided to answer a query, as values: per table reference the files it reads and
 * how it removes copies ({@link TableRead}); how routing answered each SELECT over a table with
 * rollups ({@link RollupRoute}, with the planner's own account); the last-value index a latest-row
 * query read instead of data files; the bound a newest-first query was answered within; and the
 * statement DuckDB ran. {@link #explanation()} is derived from these fields; tests and tools read
 * the fields.
 */
public record QueryPlan(
    List<TableRead> reads,
    List<RollupRoute> routes,
    List<String> routing,
    Optional<IndexRead> latestIndex,
    Optional<NewestFirstBound> newestFirst,
    String sql) {

  public QueryPlan {
    reads = List.copyOf(reads);
    routes = List.copyOf(routes);
    routing = List.copyOf(routing);
    requireNonNull(latestIndex, "latestIndex is null");
    requireNonNull(newestFirst, "newestFirst is null");
    requireNonNull(sql, "sql is null");
  }

  /** The plan of a statement Timelake ran as written (no table of the lake, or not a query). */
  public static final QueryPlan NONE =
      new QueryPlan(List.of(), List.of(), List.of(), Optional.empty(), Optional.empty(), "");

  /** How a table's copies of a key are removed on read. */
  public enum Dedup {
    /** Not removed: the table keeps every row, or {@code timelake.read_dedup} is off. */
    NONE,
    /** Each group of files that may share keys merged by a window over the group. */
    MERGE,
    /** The winning keys found first, then their rows read. */
    KEYS_FIRST,
    /** Narrowed to some series: their rows ranked in one read. */
    RANK
  }

  /**
   * One table reference: the snapshot it reads, its files before and after pruning, how many of
   * them share keys with other files (read in overlap groups and deduplicated) and how, the pruning
   * filter that chose the files (Iceberg's expression) and the key conjuncts applied to each file
   * before copies are removed.
   */
  public record TableRead(
      TableName table,
      long snapshotId,
      int filesRead,
      int filesBeforePruning,
      int partitionsRead,
      int partitionsBeforePruning,
      int overlapGroups,
      int filesInOverlapGroups,
      Dedup dedup,
      Optional<String> pruningFilter,
      Optional<String> keyFilter,
      int heldFiles) {

    public TableRead {
      requireNonNull(table, "table is null");
      requireNonNull(dedup, "dedup is null");
      requireNonNull(pruningFilter, "pruningFilter is null");
      requireNonNull(keyFilter, "keyFilter is null");
    }

    /** The files read as they are: sharing no key with another file. */
    public int independentFiles() {
      return filesRead - filesInOverlapGroups;
    }

    /** One line, for {@code --explain}. */
    public String explanation() {
      return table
          + ": "
          + filesRead
          + " of "
          + filesBeforePruning
          + " files after pruning"
          + (dedup == Dedup.NONE
              ? ", no dedup"
              : ", "
                  + filesInOverlapGroups
                  + " in "
                  + overlapGroups
                  + " overlapping groups deduplicated")
          + pruningFilter.map(filter -> "; pruning filter: " + filter).orElse("")
          + (heldFiles == 0
              ? ""
              : "; "
                  + heldFiles
                  + (heldFiles == 1 ? " file" : " files")
                  + " of rows not committed yet (a transaction's, a hot tier's) read as the"
                  + " newest");
    }
  }

  /** A latest-row query read from the table's last-value index at a snapshot. */
  public record IndexRead(TableName table, long snapshotId, String indexFile) {
    public IndexRead {
      requireNonNull(table, "table is null");
      requireNonNull(indexFile, "indexFile is null");
    }

    String explanation() {
      return "latest rows of "
          + table
          + ": read from its last-value index at snapshot "
          + snapshotId
          + " ("
          + indexFile
          + "), not from its data files";
    }
  }

  /**
   * A newest-first (or oldest-first) query answered from the rows on one side of {@code bound}: the
   * {@code limit} rows it asks for were all found there, and every row left out is older (or
   * newer).
   */
  public record NewestFirstBound(
      TableName table, String timeColumn, boolean descending, Instant bound, long limit) {
    public NewestFirstBound {
      requireNonNull(table, "table is null");
      requireNonNull(timeColumn, "timeColumn is null");
      requireNonNull(bound, "bound is null");
    }

    /** Its line in {@link QueryPlan#explanation()}. */
    public String explanationLine() {
      return String.format(
          Locale.ROOT,
          "%s first: %s rows of %s with %s %s %s (%d found; the rows left out are all %s)",
          descending ? "newest" : "oldest",
          limit,
          table,
          timeColumn,
          descending ? ">=" : "<=",
          bound,
          limit,
          descending ? "older" : "newer");
    }
  }

  /** This plan answered within a newest-first bound. */
  public QueryPlan withNewestFirst(NewestFirstBound bound) {
    return new QueryPlan(reads, routes, routing, latestIndex, Optional.of(bound), sql);
  }

  /** This plan reading {@code index} for the latest rows. */
  public QueryPlan withLatestIndex(IndexRead index) {
    return new QueryPlan(reads, routes, routing, Optional.of(index), newestFirst, sql);
  }

  /** The plan's account, one line per decision, derived from its fields. */
  public List<String> explanation() {
    List<String> lines = new ArrayList<>();
    latestIndex.ifPresent(index -> lines.add(index.explanation()));
    lines.addAll(routing);
    reads.forEach(read -> lines.add(read.explanation()));
    newestFirst.ifPresent(bound -> lines.add(bound.explanationLine()));
    return List.copyOf(lines);
  }
}

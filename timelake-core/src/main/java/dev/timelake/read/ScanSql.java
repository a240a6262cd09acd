package dev.timelake.read;

import dev.timelake.Column;
import dev.timelake.engine.SqlText;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a {@link ScanPlan} as a DuckDB relation with the table's columns: independent files are
 * read as they are; each group of files that may share keys keeps only the latest copy of each key
 * (highest insertion time, then highest data sequence number).
 */
public final class ScanSql {
  private static final String SEQUENCE = "__tl_seq";

  private ScanSql() {}

  /** A SELECT statement producing the table's rows as the plan reads them. */
  public static String relation(ScanPlan plan, DedupStrategy strategy) {
    TableContract contract = plan.contract();
    String columns = SqlText.identifiers(contract.columnNames());
    List<String> parts = new ArrayList<>();
    if (!plan.independent().isEmpty()) {
      parts.add("SELECT " + columns + " FROM " + readParquet(plan.independent()));
    }
    for (List<PlannedFile> group : plan.overlapping()) {
      parts.add(
          strategy == DedupStrategy.MERGE
              ? mergedGroup(contract, columns, group)
              : keysFirstGroup(contract, columns, group));
    }
    if (parts.isEmpty()) {
      return empty(contract);
    }
    return String.join(" UNION ALL ", parts);
  }

  /** Every row of the group ranked by (insertion time, commit order); the first per key wins. */
  private static String mergedGroup(
      TableContract contract, String columns, List<PlannedFile> group) {
    return "SELECT "
        + columns
        + " FROM ("
        + ranked(columns, group)
        + ")"
        + " QUALIFY row_number() OVER (PARTITION BY "
        + SqlText.identifiers(contract.keyColumns())
        + " ORDER BY "
        + winnerOrder(contract)
        + ") = 1";
  }

  /**
   * Older copies listed from key columns only, then the group read with an anti-join. A key held by
   * two files is always held by a non-fresh one, so only those keys are candidates.
   */
  private static String keysFirstGroup(
      TableContract contract, String columns, List<PlannedFile> group) {
    String keys = SqlText.identifiers(contract.keyColumns());
    List<String> rankColumns = new ArrayList<>(contract.keyColumns());
    contract.ingestTimeColumn().ifPresent(rankColumns::add);
    List<PlannedFile> notFresh = group.stream().filter(f -> !f.fresh()).toList();
    String candidates = "SELECT DISTINCT " + keys + " FROM " + readParquet(notFresh);
    String copies =
        "SELECT * FROM ("
            + ranked(SqlText.identifiers(rankColumns), group)
            + ") SEMI JOIN ("
            + candidates
            + ") USING ("
            + keys
            + ")";
    String older =
        "SELECT "
            + keys
            + ", "
            + SEQUENCE
            + " FROM ("
            + copies
            + ") QUALIFY row_number() OVER"
            + " (PARTITION BY "
            + keys
            + " ORDER BY "
            + winnerOrder(contract)
            + ") > 1";
    return "SELECT "
        + columns
        + " FROM ("
        + ranked(columns, group)
        + ") ANTI JOIN ("
        + older
        + ") USING ("
        + keys
        + ", "
        + SEQUENCE
        + ")";
  }

  /** The group's rows with their file's data sequence number. */
  private static String ranked(String columns, List<PlannedFile> group) {
    List<String> ranked = new ArrayList<>();
    for (PlannedFile file : group) {
      ranked.add(
          "SELECT "
              + columns
              + ", CAST("
              + file.sequenceNumber()
              + " AS BIGINT) AS "
              + SEQUENCE
              + " FROM "
              + readParquet(List.of(file)));
    }
    return String.join(" UNION ALL ", ranked);
  }

  /** Latest write first: highest insertion time, then highest data sequence number. */
  private static String winnerOrder(TableContract contract) {
    List<String> order = new ArrayList<>();
    contract.ingestTimeColumn().ifPresent(c -> order.add(SqlText.identifier(c) + " DESC"));
    order.add(SEQUENCE + " DESC");
    return String.join(", ", order);
  }

  /** {@code read_parquet([...])} over the files' local paths. */
  public static String readParquet(List<PlannedFile> files) {
    List<String> paths = files.stream().map(f -> SqlText.localPath(f.location())).toList();
    return "read_parquet(" + SqlText.literalList(paths) + ")";
  }

  private static String empty(TableContract contract) {
    List<String> nulls = new ArrayList<>();
    for (Column column : contract.columns()) {
      nulls.add(
          "CAST(NULL AS " + column.type().sql() + ") AS " + SqlText.identifier(column.name()));
    }
    return "SELECT " + String.join(", ", nulls) + " WHERE false";
  }
}

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
  public static String relation(ScanPlan plan) {
    TableContract contract = plan.contract();
    String columns = SqlText.identifiers(contract.columnNames());
    List<String> parts = new ArrayList<>();
    if (!plan.independent().isEmpty()) {
      parts.add("SELECT " + columns + " FROM " + readParquet(plan.independent()));
    }
    for (List<PlannedFile> group : plan.overlapping()) {
      parts.add(deduplicatedGroup(contract, columns, group));
    }
    if (parts.isEmpty()) {
      return empty(contract);
    }
    return String.join(" UNION ALL ", parts);
  }

  private static String deduplicatedGroup(
      TableContract contract, String columns, List<PlannedFile> group) {
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
    List<String> order = new ArrayList<>();
    contract.ingestTimeColumn().ifPresent(c -> order.add(SqlText.identifier(c) + " DESC"));
    order.add(SEQUENCE + " DESC");
    return "SELECT "
        + columns
        + " FROM ("
        + String.join(" UNION ALL ", ranked)
        + ")"
        + " QUALIFY row_number() OVER (PARTITION BY "
        + SqlText.identifiers(contract.keyColumns())
        + " ORDER BY "
        + String.join(", ", order)
        + ") = 1";
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

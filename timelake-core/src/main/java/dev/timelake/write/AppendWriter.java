package dev.timelake.write;

import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.index.RowKeys;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.Table;

/**
 * Writes staged rows as Parquet files, one per touched time partition, sorted by (series key…,
 * time) and carrying Iceberg field ids. Within the append, copies of a key keep only the latest
 * (highest insertion time, then the later input row).
 */
final class AppendWriter {
  private static final String PARTITION = "__tl_partition";

  private final EngineConnection connection;
  private final TableContract contract;
  private final Table table;
  private final DataFileWriter files;

  AppendWriter(
      EngineConnection connection, TableContract contract, Table table, DataFileWriter files) {
    this.connection = connection;
    this.contract = contract;
    this.table = table;
    this.files = files;
  }

  /** The rows that will be written: staged rows less copies of a key within the append. */
  String deduplicated(String stageTable) {
    String columns = SqlText.identifiers(contract.columnNames());
    if (!contract.deduplicates() || !hasCopies(stageTable)) {
      return "SELECT " + columns + " FROM " + stageTable;
    }
    List<String> order = new ArrayList<>();
    contract.ingestTimeColumn().ifPresent(c -> order.add(SqlText.identifier(c) + " DESC"));
    order.add("rowid DESC");
    return "SELECT "
        + columns
        + " FROM "
        + stageTable
        + " QUALIFY row_number() OVER (PARTITION BY "
        + RowKeys.list(contract)
        + " ORDER BY "
        + String.join(", ", order)
        + ") = 1";
  }

  /**
   * True when two staged rows share a key. A hash aggregate over the key columns costs a quarter of
   * the window that ranks copies (10 M rows: 8 s against 33 s on a loaded 2-core machine), and most
   * appends have no copies.
   */
  private boolean hasCopies(String stageTable) {
    String keys = RowKeys.list(contract);
    Object copies =
        connection.scalar(
            "SELECT count(*) FROM (SELECT "
                + keys
                + " FROM "
                + stageTable
                + " GROUP BY "
                + keys
                + " HAVING count(*) > 1)");
    return ((Number) copies).longValue() > 0;
  }

  /**
   * Writes the files; removes what it wrote if any write fails. Within each partition, rows newer
   * than everything the partition held before go to one file and older (late) rows to another, so
   * readers can tell the fresh file shares no key with earlier files and skip dedup for it.
   */
  List<WrittenFile> write(String stageTable, Consumer<String> progress) {
    String rows = "__tl_rows_" + UUID.randomUUID().toString().replace("-", "");
    if (contract.hasLogicalClock()) {
      requirePartitions(stageTable);
    }
    boolean ordered = isOrdered(stageTable);
    List<WrittenFile> written = new ArrayList<>();
    try {
      if (ordered) {
        // Rows already in file order, no key twice: the files are written from the staged rows
        // as they lie, without the copy check, the partition copy and the per-file sort.
        progress.accept("rows already in (partition, key, time) order: writing without sorting");
        connection.execute(
            "CREATE TEMPORARY VIEW "
                + rows
                + " AS "
                + withPartition(stageTable, "rowid AS __tl_row"));
      } else {
        connection.execute(
            "CREATE TEMPORARY TABLE "
                + rows
                + " AS SELECT *, "
                + partitionSql()
                + " AS "
                + PARTITION
                + " FROM ("
                + deduplicated(stageTable)
                + ") ORDER BY "
                + PARTITION);
      }
      String late = lateSql(rows);
      List<List<Object>> files = connection.rows(fileSummarySql(rows, late, ordered));
      int done = 0;
      for (List<Object> file : files) {
        // In order, a partition's rows are one stretch of the staged rows: each file reads
        // only its stretch (by row id, which DuckDB skips to), not every staged row again.
        String from =
            ordered
                ? "("
                    + withPartition(stageTable, null)
                    + " WHERE rowid BETWEEN "
                    + file.get(5)
                    + " AND "
                    + file.get(6)
                    + ")"
                : rows;
        written.add(writeFile(from, late, file, !ordered));
        progress.accept("wrote " + (++done) + " of " + files.size() + " files");
      }
      return written;
    } catch (RuntimeException e) {
      files.deleteAll(written.stream().map(WrittenFile::location).toList(), e);
      throw e;
    } finally {
      connection.execute((ordered ? "DROP VIEW IF EXISTS " : "DROP TABLE IF EXISTS ") + rows);
    }
  }

  /**
   * True when the staged rows, in the order they were staged, are strictly increasing in
   * (partition, series key…, time) (key columns are never NULL): then no two share a key and each
   * partition's rows are already in the order its file keeps them, which is what an import of files
   * a sorted export wrote looks like. Checked with one positional join of the rows against
   * themselves shifted by one (DuckDB pairs them by position, in staging order), about a third of
   * what sorting them costs. Tables whose copies are rows of one index interval are not checked:
   * their keys are not the file order's.
   */
  private boolean isOrdered(String stageTable) {
    if (!contract.isTimeSeries()
        || contract.hasLogicalClock()
        || contract.replacesWithinInterval()
        || contract.keyColumns().isEmpty()) {
      return false;
    }
    List<String> keys = new ArrayList<>();
    keys.add(partitionSql() + " AS __tl_k0");
    List<String> columns = contract.keyColumns();
    for (int i = 0; i < columns.size(); i++) {
      keys.add(SqlText.identifier(columns.get(i)) + " AS __tl_k" + (i + 1));
    }
    List<String> previous = new ArrayList<>();
    List<String> next = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      previous.add("a.__tl_k" + i);
      next.add("b.__tl_k" + i);
    }
    String rows = "SELECT " + String.join(", ", keys) + " FROM " + stageTable;
    // The first rows first: input in another order (by time, say) shows it there, at next to no
    // cost; DuckDB reads the whole of both sides of a positional join whatever the LIMIT.
    return inOrder(rows + " LIMIT " + FIRST_ROWS_CHECKED, previous, next)
        && inOrder(rows, previous, next);
  }

  /** Rows checked for order before all of them are. */
  private static final int FIRST_ROWS_CHECKED = 65_536;

  private boolean inOrder(String rows, List<String> previous, List<String> next) {
    Object unordered =
        connection.scalar(
            "SELECT count(*) FROM ("
                + rows
                + ") a POSITIONAL JOIN (SELECT * FROM ("
                + rows
                + ") OFFSET 1) b WHERE b.__tl_k0 IS NOT NULL AND ("
                + String.join(", ", next)
                + ") <= ("
                + String.join(", ", previous)
                + ")");
    return ((Number) unordered).longValue() == 0;
  }

  /** Fails, naming the value, when a clock value lies beyond the partitions an int numbers. */
  private void requirePartitions(String stageTable) {
    String time = SqlText.identifier(contract.timeColumn().orElseThrow());
    List<Object> range =
        connection.rows("SELECT min(" + time + "), max(" + time + ") FROM " + stageTable).get(0);
    try {
      for (Object value : range) {
        if (value != null) {
          contract.partitioning().ordinal(((Number) value).longValue());
        }
      }
    } catch (dev.timelake.TimelakeException e) {
      throw dev.timelake.TimelakeException.validation(
          "Cannot append to %s: %s; nothing was written", contract.name(), e.getMessage());
    }
  }

  private String partitionSql() {
    return contract
        .timeColumn()
        .map(time -> contract.partitioning().ordinalSql(SqlText.identifier(time)))
        .orElse("0");
  }

  /** A boolean expression: the row is not newer than all rows its partition held before. */
  private String lateSql(String rows) {
    if (contract.timeColumn().isEmpty() || table.currentSnapshot() == null) {
      return "false";
    }
    String time = contract.partitioning().valueSql(SqlText.identifier(contract.timeColumn().get()));
    List<Object> range =
        connection.rows("SELECT min(" + time + "), max(" + time + ") FROM " + rows).get(0);
    if (range.get(0) == null) {
      return "false";
    }
    Map<Integer, Long> previous =
        PartitionMaxima.of(
            table,
            contract,
            ((Number) range.get(0)).longValue(),
            ((Number) range.get(1)).longValue());
    if (previous.isEmpty()) {
      return "false";
    }
    StringBuilder late = new StringBuilder("CASE " + PARTITION);
    previous.forEach(
        (partition, max) ->
            late.append(" WHEN ")
                .append(partition)
                .append(" THEN ")
                .append(time)
                .append(" <= ")
                .append(max));
    return late.append(" ELSE false END").toString();
  }

  /** The staged rows with their partition (and {@code extra}, when given), as a SELECT. */
  private String withPartition(String stageTable, String extra) {
    return "SELECT *, "
        + (extra == null ? "" : extra + ", ")
        + partitionSql()
        + " AS "
        + PARTITION
        + " FROM "
        + stageTable;
  }

  /**
   * Per file to write (partition, late or not): rows, time range and, with {@code rowRange}, the
   * first and last staged row id of the partition's rows.
   */
  private String fileSummarySql(String rows, String late, boolean rowRange) {
    String time = contract.timeColumn().map(SqlText::identifier).orElse(null);
    String value = time == null ? null : contract.partitioning().valueSql(time);
    String range = time == null ? "0, 0" : "min(" + value + "), max(" + value + ")";
    return "SELECT "
        + PARTITION
        + ", "
        + late
        + " AS late, count(*), "
        + range
        + (rowRange ? ", min(__tl_row), max(__tl_row)" : "")
        + " FROM "
        + rows
        + " GROUP BY ALL ORDER BY ALL";
  }

  private WrittenFile writeFile(String rows, String late, List<Object> summary, boolean sort) {
    int partition = ((Number) summary.get(0)).intValue();
    boolean isLate = (Boolean) summary.get(1);
    long count = ((Number) summary.get(2)).longValue();
    String location = files.newLocation(partition, isLate ? "late" : "data");
    String where = " WHERE " + PARTITION + " = " + partition + " AND (" + late + ") = " + isLate;
    String order =
        sort && contract.isTimeSeries()
            ? " ORDER BY " + SqlText.identifiers(contract.keyColumns())
            : "";
    files.write(
        "SELECT " + SqlText.identifiers(contract.columnNames()) + " FROM " + rows + where + order,
        location);
    return new WrittenFile(
        location,
        partition,
        count,
        ((Number) summary.get(3)).longValue(),
        ((Number) summary.get(4)).longValue(),
        isLate);
  }
}

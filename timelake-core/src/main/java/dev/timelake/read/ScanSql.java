package dev.timelake.read;

import dev.timelake.Column;
import dev.timelake.engine.SqlText;
import dev.timelake.index.RowKeys;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Renders a {@link ScanPlan} as a DuckDB relation with the table's columns: independent files are
 * read as they are; each group of files that may share keys keeps only the latest copy of each key
 * (highest insertion time, then highest data sequence number).
 */
public final class ScanSql {
  private static final String SEQUENCE = "__tl_seq";
  private static final String ROW = "__tl_row";
  private static final String KEY = "__tl_key";

  /** Small overlapping groups are merged together until they hold this many rows. */
  private static final long MERGE_BATCH_ROWS = 500_000;

  private ScanSql() {}

  /**
   * A SELECT statement producing the table's rows as the plan reads them, from the local paths of
   * its files ({@code files} copies remote ones first).
   */
  public static String relation(ScanPlan plan, DedupStrategy strategy, LakeFileIO files) {
    return relation(plan, strategy, Optional.empty(), files);
  }

  /**
   * Like {@link #relation(ScanPlan, DedupStrategy, LakeFileIO)}, keeping only the rows for which
   * {@code keyFilter} holds, applied to every file read before copies are removed. The filter MUST
   * read only the table's key columns (series key and time, unqualified): every copy of a key then
   * passes or fails together, so removing rows first cannot let an older copy win.
   */
  public static String relation(
      ScanPlan plan, DedupStrategy strategy, Optional<String> keyFilter, LakeFileIO files) {
    return relation(LocalScanFiles.localized(plan, files), strategy, keyFilter);
  }

  private static String relation(
      ScanPlan plan, DedupStrategy strategy, Optional<String> keyFilter) {
    TableContract contract = plan.contract();
    String columns = SqlText.identifiers(contract.columnNames());
    String where = keyFilter.map(filter -> " WHERE " + filter).orElse("");
    if (contract.replacesWithinInterval() && strategy == DedupStrategy.KEYS_FIRST) {
      // Its key lists read key columns alone; copies keyed by an interval are merged instead.
      strategy = DedupStrategy.MERGE;
    }
    List<String> parts = new ArrayList<>();
    if (!plan.independent().isEmpty()) {
      parts.add("SELECT " + columns + " FROM " + readParquet(contract, plan.independent()) + where);
    }
    List<PlannedFile> batch = new ArrayList<>();
    long batchRows = 0;
    for (List<PlannedFile> group : plan.overlapping()) {
      if (group.stream().allMatch(PlannedFile::fresh)) {
        // Fresh files never share a key with each other.
        parts.add("SELECT " + columns + " FROM " + readParquet(contract, group) + where);
        continue;
      }
      if (strategy == DedupStrategy.MERGE) {
        // Two fresh files never share a key, whichever groups they are in, and groups share no
        // keys: small groups merge as one, in one query instead of one each (24 hourly files with
        // a correction each: 3× faster); large ones keep their own, which run in parallel.
        batch.addAll(group);
        batchRows += group.stream().mapToLong(PlannedFile::rows).sum();
        if (batchRows >= MERGE_BATCH_ROWS) {
          parts.add(mergedGroup(contract, columns, batch, where));
          batch = new ArrayList<>();
          batchRows = 0;
        }
      } else {
        parts.add(
            strategy == DedupStrategy.KEYS_FIRST
                ? keysFirstGroup(contract, columns, group, where)
                : rankedGroup(contract, columns, group, where));
      }
    }
    if (!batch.isEmpty()) {
      parts.add(mergedGroup(contract, columns, batch, where));
    }
    if (parts.isEmpty()) {
      return empty(contract);
    }
    return String.join(" UNION ALL ", parts);
  }

  /**
   * The group with copies removed. A key held by two files is always held by a non-fresh one (two
   * fresh files never share a key), so rows of fresh files whose key no non-fresh file holds are
   * winners as they are; only the contested rows (those keys' rows and every non-fresh row) are
   * ranked by (insertion time, commit order), the first per key winning. On IIoT data, where a few
   * late files overlap many on-time ones, this ranks a few percent of the rows.
   */
  private static String mergedGroup(
      TableContract contract, String columns, List<PlannedFile> group, String where) {
    List<PlannedFile> fresh = group.stream().filter(PlannedFile::fresh).toList();
    List<PlannedFile> notFresh = group.stream().filter(f -> !f.fresh()).toList();
    Keys key = Keys.of(contract);
    String keyed = columns + key.extraColumn();
    String contested = ranked(contract, keyed, notFresh, where);
    String uncontested = "";
    if (!fresh.isEmpty()) {
      String keys = "(" + heldKeys(contract, notFresh, where) + ")";
      String freshRows =
          where.isEmpty() && key.extraColumn().isEmpty()
              ? readParquet(contract, fresh)
              : "(SELECT " + keyed + " FROM " + readParquet(contract, fresh) + where + ")";
      uncontested =
          "SELECT "
              + columns
              + " FROM "
              + freshRows
              + " AS "
              + ROW
              + " ANTI JOIN "
              + keys
              + " AS "
              + KEY
              + " ON "
              + sameKey(contract)
              + " UNION ALL ";
      contested +=
          " UNION ALL SELECT * FROM ("
              + ranked(contract, keyed, fresh, where)
              + ") AS "
              + ROW
              + " SEMI JOIN "
              + keys
              + " AS "
              + KEY
              + " ON "
              + sameKey(contract);
    }
    return uncontested
        + "SELECT "
        + columns
        + " FROM ("
        + contested
        + ") QUALIFY row_number() OVER (PARTITION BY "
        + key.list()
        + " ORDER BY "
        + winnerOrder(contract)
        + ") = 1";
  }

  /**
   * What makes rows copies, as the queries of a group name it: the key columns, or for a table
   * whose rows replace the others of their interval the series key and an added column holding the
   * interval's ordinal ({@code extraColumn}, selected next to the table's columns and dropped by
   * the group's outer SELECT).
   */
  private record Keys(List<String> names, String extraColumn, String held) {
    private static final String INTERVAL = "__tl_interval";

    static Keys of(TableContract contract) {
      List<String> rowKeys = RowKeys.of(contract);
      if (!contract.replacesWithinInterval()) {
        return new Keys(rowKeys, "", String.join(", ", rowKeys));
      }
      // The last row key is the interval's ordinal, an expression: held as a column.
      List<String> names = new ArrayList<>(rowKeys.subList(0, rowKeys.size() - 1));
      String ordinal = rowKeys.get(rowKeys.size() - 1) + " AS " + INTERVAL;
      String held = String.join(", ", names) + (names.isEmpty() ? "" : ", ") + ordinal;
      names.add(INTERVAL);
      return new Keys(names, ", " + ordinal, held);
    }

    String list() {
      return String.join(", ", names);
    }
  }

  /** The group read once, every row ranked by (insertion time, commit order), the first per key. */
  private static String rankedGroup(
      TableContract contract, String columns, List<PlannedFile> group, String where) {
    return "SELECT "
        + columns
        + " FROM ("
        + ranked(contract, columns, group, where)
        + ") QUALIFY row_number() OVER (PARTITION BY "
        + RowKeys.list(contract)
        + " ORDER BY "
        + winnerOrder(contract)
        + ") = 1";
  }

  /**
   * Older copies listed from key columns only, then the group read with an anti-join. A key held by
   * two files is always held by a non-fresh one, so only those keys are candidates.
   */
  private static String keysFirstGroup(
      TableContract contract, String columns, List<PlannedFile> group, String where) {
    String keys = SqlText.identifiers(contract.keyColumns());
    List<String> rankColumns = new ArrayList<>(contract.keyColumns());
    contract.ingestTimeColumn().ifPresent(rankColumns::add);
    List<PlannedFile> notFresh = group.stream().filter(f -> !f.fresh()).toList();
    String copies =
        "SELECT * FROM ("
            + ranked(contract, SqlText.identifiers(rankColumns), group, where)
            + ") AS "
            + ROW
            + " SEMI JOIN ("
            + heldKeys(contract, notFresh, where)
            + ") AS "
            + KEY
            + " ON "
            + sameKey(contract);
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
        + ranked(contract, columns, group, where)
        + ") AS "
        + ROW
        + " ANTI JOIN ("
        + older
        + ") AS "
        + KEY
        + " ON "
        + sameKey(contract)
        + " AND "
        + ROW
        + "."
        + SEQUENCE
        + " = "
        + KEY
        + "."
        + SEQUENCE;
  }

  /** The distinct keys the files hold. */
  private static String heldKeys(TableContract contract, List<PlannedFile> files, String where) {
    return "SELECT DISTINCT "
        + Keys.of(contract).held()
        + " FROM "
        + readParquet(contract, files)
        + where;
  }

  /** Equal keys of a row and a listed key, a missing series key equal to a missing one. */
  private static String sameKey(TableContract contract) {
    List<String> terms = new ArrayList<>();
    for (String name : Keys.of(contract).names()) {
      terms.add(ROW + "." + name + " IS NOT DISTINCT FROM " + KEY + "." + name);
    }
    return String.join(" AND ", terms);
  }

  /**
   * The files' rows with their data sequence number, in one scan: the files are listed in commit
   * order and each row's number is looked up by DuckDB's {@code file_index}. A table with a column
   * of that name is read file by file instead.
   */
  private static String ranked(
      TableContract contract, String columns, List<PlannedFile> files, String where) {
    // A file an external append added is read alone, its insertion time replaced.
    if (columns.toLowerCase(java.util.Locale.ROOT).contains("\"file_index\"")
        || files.stream().anyMatch(PlannedFile::isExternal)) {
      List<String> ranked = new ArrayList<>();
      for (PlannedFile file : files) {
        ranked.add(
            "SELECT "
                + columns
                + ", CAST("
                + file.sequenceNumber()
                + " AS BIGINT) AS "
                + SEQUENCE
                + " FROM "
                + readParquet(contract, List.of(file))
                + where);
      }
      return String.join(" UNION ALL ", ranked);
    }
    List<String> sequences = files.stream().map(f -> Long.toString(f.sequenceNumber())).toList();
    return "SELECT "
        + columns
        + ", CAST(["
        + String.join(", ", sequences)
        + "] AS BIGINT[])[CAST(file_index AS BIGINT) + 1] AS "
        + SEQUENCE
        + " FROM "
        + readParquet(contract, files)
        + where;
  }

  /** Latest write first: highest insertion time, then highest data sequence number. */
  private static String winnerOrder(TableContract contract) {
    List<String> order = new ArrayList<>();
    contract.ingestTimeColumn().ifPresent(c -> order.add(SqlText.identifier(c) + " DESC"));
    order.add(SEQUENCE + " DESC");
    return String.join(", ", order);
  }

  /**
   * {@code read_parquet([...])} over the files of a table: by field id, with its columns' names and
   * types, when the table's schema changed (older files then read added columns as NULL).
   */
  public static String readParquet(TableContract contract, List<PlannedFile> files, LakeFileIO io) {
    return readParquet(contract, LocalScanFiles.localized(files, io));
  }

  private static String readParquet(TableContract contract, List<PlannedFile> files) {
    if (contract.ingestTimeColumn().isEmpty()
        || files.stream().noneMatch(PlannedFile::isExternal)) {
      return readFiles(contract, files);
    }
    // Files external appends added give their rows the commit's insertion time.
    List<String> parts = new ArrayList<>();
    List<PlannedFile> own = files.stream().filter(file -> !file.isExternal()).toList();
    if (!own.isEmpty()) {
      parts.add("SELECT * FROM " + readFiles(contract, own));
    }
    for (PlannedFile file : files) {
      if (file.isExternal()) {
        parts.add(
            ExternalWrites.timed(
                contract, readFiles(contract, List.of(file)), file.externalCommitMicros()));
      }
    }
    return "(" + String.join(" UNION ALL BY NAME ", parts) + ")";
  }

  /** {@code read_parquet} over the files, by field id when the table's schema changed. */
  private static String readFiles(TableContract contract, List<PlannedFile> files) {
    if (!contract.hasEvolvedSchema()) {
      return readParquet(files);
    }
    List<String> entries = new ArrayList<>();
    for (dev.timelake.Column column : contract.columns()) {
      Integer id = contract.evolvedFieldIds().get(column.name());
      if (id != null) {
        entries.add(
            id
                + ": {name: "
                + SqlText.literal(column.name())
                + ", type: "
                + SqlText.literal(column.type().sql())
                + ", default_value: NULL}");
      }
    }
    return "read_parquet(" + paths(files) + ", schema = MAP {" + String.join(", ", entries) + "})";
  }

  /** {@code read_parquet([...])} over the files' local paths. */
  private static String readParquet(List<PlannedFile> files) {
    return "read_parquet(" + paths(files) + ")";
  }

  private static String paths(List<PlannedFile> files) {
    return SqlText.literalList(files.stream().map(f -> SqlText.localPath(f.location())).toList());
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

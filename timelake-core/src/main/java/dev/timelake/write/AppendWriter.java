package dev.timelake.write;

import dev.timelake.Chunk;
import dev.timelake.ErrorCode;
import dev.timelake.TimelakeException;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import dev.timelake.table.TimePartitions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

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

  AppendWriter(EngineConnection connection, TableContract contract, Table table) {
    this.connection = connection;
    this.contract = contract;
    this.table = table;
  }

  /** The rows that will be written: staged rows less copies of a key within the append. */
  String deduplicated(String stageTable) {
    String columns = SqlText.identifiers(contract.columnNames());
    if (!contract.deduplicates()) {
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
        + SqlText.identifiers(contract.keyColumns())
        + " ORDER BY "
        + String.join(", ", order)
        + ") = 1";
  }

  /**
   * Writes the files; removes what it wrote if any write fails. Within each partition, rows newer
   * than everything the partition held before go to one file and older (late) rows to another, so
   * readers can tell the fresh file shares no key with earlier files and skip dedup for it.
   */
  List<WrittenFile> write(String stageTable, Consumer<String> progress) {
    String rows = "__tl_rows_" + UUID.randomUUID().toString().replace("-", "");
    List<WrittenFile> written = new ArrayList<>();
    try {
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
      String late = lateSql(rows);
      List<List<Object>> files = connection.rows(fileSummarySql(rows, late));
      int done = 0;
      for (List<Object> file : files) {
        written.add(writeFile(rows, late, file));
        progress.accept("wrote " + (++done) + " of " + files.size() + " files");
      }
      return written;
    } catch (RuntimeException e) {
      written.forEach(file -> deleteQuietly(file.location(), e));
      throw e;
    } finally {
      connection.execute("DROP TABLE IF EXISTS " + rows);
    }
  }

  private String partitionSql() {
    return contract
        .timeColumn()
        .map(time -> TimePartitions.ordinalSql(contract.chunk(), SqlText.identifier(time)))
        .orElse("0");
  }

  /** A boolean expression: the row is not newer than all rows its partition held before. */
  private String lateSql(String rows) {
    if (contract.timeColumn().isEmpty() || table.currentSnapshot() == null) {
      return "false";
    }
    String time = "epoch_us(" + SqlText.identifier(contract.timeColumn().get()) + ")";
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

  private String fileSummarySql(String rows, String late) {
    String time = contract.timeColumn().map(SqlText::identifier).orElse(null);
    String range =
        time == null ? "0, 0" : "min(epoch_us(" + time + ")), max(epoch_us(" + time + "))";
    return "SELECT "
        + PARTITION
        + ", "
        + late
        + " AS late, count(*), "
        + range
        + " FROM "
        + rows
        + " GROUP BY ALL ORDER BY ALL";
  }

  private WrittenFile writeFile(String rows, String late, List<Object> summary) {
    int partition = ((Number) summary.get(0)).intValue();
    boolean isLate = (Boolean) summary.get(1);
    long count = ((Number) summary.get(2)).longValue();
    String location = newLocation(partition);
    String path = SqlText.localPath(location);
    createParentFolder(path);
    String where = " WHERE " + PARTITION + " = " + partition + " AND (" + late + ") = " + isLate;
    String order =
        contract.isTimeSeries() ? " ORDER BY " + SqlText.identifiers(contract.keyColumns()) : "";
    connection.execute(
        "COPY (SELECT "
            + SqlText.identifiers(contract.columnNames())
            + " FROM "
            + rows
            + where
            + order
            + ") TO "
            + SqlText.literal(path)
            + " ("
            + parquetOptions()
            + ")");
    return new WrittenFile(
        location,
        partition,
        count,
        ((Number) summary.get(3)).longValue(),
        ((Number) summary.get(4)).longValue());
  }

  private String newLocation(int partition) {
    String fileName = UUID.randomUUID() + ".parquet";
    if (contract.timeColumn().isEmpty()) {
      return table.locationProvider().newDataLocation(fileName);
    }
    Chunk chunk = contract.chunk();
    String folder =
        table.spec().fields().get(0).name() + "=" + TimePartitions.label(chunk, partition);
    return table.locationProvider().newDataLocation(folder + "/" + fileName);
  }

  private String parquetOptions() {
    List<String> fieldIds = new ArrayList<>();
    for (Types.NestedField field : table.schema().columns()) {
      fieldIds.add(SqlText.identifier(field.name()) + ": " + field.fieldId());
    }
    String codec = contract.setting(Settings.COMPRESSION_CODEC).orElse("zstd");
    String rowGroup = contract.setting(Settings.ROW_GROUP_ROWS).orElse("1048576");
    return "FORMAT parquet, COMPRESSION "
        + codec
        + ", ROW_GROUP_SIZE "
        + Long.parseLong(rowGroup)
        + ", FIELD_IDS {"
        + String.join(", ", fieldIds)
        + "}";
  }

  private static void createParentFolder(String path) {
    Path parent = Path.of(path).getParent();
    if (parent == null || path.contains("://")) {
      return;
    }
    try {
      Files.createDirectories(parent);
    } catch (IOException e) {
      throw new TimelakeException(
          ErrorCode.INTERNAL, "Cannot create data folder " + parent + ": " + e.getMessage(), e);
    }
  }

  private void deleteQuietly(String location, RuntimeException failure) {
    try {
      table.io().deleteFile(location);
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}

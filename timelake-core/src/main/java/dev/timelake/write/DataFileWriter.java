package dev.timelake.write;

import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.storage.LakeFileIO;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.types.Types;

/**
 * Writes one Parquet data file of a table with DuckDB (Iceberg field ids, the table's codec and
 * row-group size) and describes it as an Iceberg {@link DataFile} with footer statistics. Shared by
 * appends and compaction.
 */
public final class DataFileWriter {
  private final EngineConnection connection;
  private final Table table;
  private final TableContract contract;

  public DataFileWriter(EngineConnection connection, Table table, TableContract contract) {
    this.connection = connection;
    this.table = table;
    this.contract = contract;
  }

  /** A new file location in the partition's folder; {@code prefix} names what wrote it. */
  public String newLocation(int partition, String prefix) {
    String fileName = prefix + "-" + UUID.randomUUID() + ".parquet";
    if (!table.spec().isPartitioned()) {
      return table.locationProvider().newDataLocation(fileName);
    }
    String folder =
        table.spec().fields().get(0).name() + "=" + contract.partitioning().label(partition);
    return table.locationProvider().newDataLocation(folder + "/" + fileName);
  }

  /**
   * Writes the rows of {@code select} (the table's columns, in order) to {@code location}: DuckDB
   * writes a local file, which a remote location receives as an upload (and keeps as its copy).
   */
  public void write(String select, String location) {
    String options = parquetOptions();
    LakeFileIO.of(table.io())
        .write(
            location,
            path ->
                connection.execute(
                    "COPY (" + select + ") TO " + SqlText.literal(path) + " (" + options + ")"));
  }

  /**
   * Writes the rows of {@code select} to a local file outside the table's folder, as a data file
   * would be written (field ids, codec), for a reader that must see rows not yet committed.
   */
  public void writeLocal(String select, java.nio.file.Path path) {
    connection.execute(
        "COPY ("
            + select
            + ") TO "
            + SqlText.literal(path.toString())
            + " ("
            + parquetOptions()
            + ")");
  }

  /** The Iceberg description of a written file, with statistics read from its footer. */
  public DataFile dataFile(String location, int partition) {
    InputFile input = table.io().newInputFile(location);
    Metrics metrics = ParquetFooter.metrics(input, MetricsConfig.forTable(table));
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(location)
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(input.getLength())
            .withMetrics(metrics)
            .withSortOrder(table.sortOrder());
    if (table.spec().isPartitioned()) {
      builder.withPartition(
          new PartitionOrdinal(contract.partitioning().partitionValue(partition)));
    }
    return builder.build();
  }

  /**
   * Deletes files, adding failures to {@code failure} (when not null) as suppressed exceptions; a
   * file that cannot be deleted is left for orphan cleanup.
   */
  public void deleteAll(List<String> locations, Exception failure) {
    for (String location : locations) {
      try {
        table.io().deleteFile(location);
      } catch (RuntimeException e) {
        // Left for orphan cleanup; a failure being reported carries it along.
        if (failure != null) {
          failure.addSuppressed(e);
        }
      }
    }
  }

  private String parquetOptions() {
    List<String> fieldIds = new ArrayList<>();
    // The rows have the contract's columns; the table handle is shared and refreshed, so its
    // schema may be newer (a column added meanwhile, which these rows lack and readers fill with
    // NULL). Ids are matched by name; a column of the rows the table no longer has is a conflict.
    org.apache.iceberg.Schema schema = table.schema();
    for (dev.timelake.Column column : contract.columns()) {
      Types.NestedField field = schema.asStruct().field(column.name());
      if (field == null) {
        throw new dev.timelake.ConflictException(
            "Cannot write to "
                + contract.name()
                + ": its column '"
                + column.name()
                + "' was renamed or dropped while the rows were written; nothing was committed,"
                + " retry the write");
      }
      fieldIds.add(
          SqlText.identifier(field.name()) + ": " + fieldId(field.fieldId(), field.type()));
    }
    String codec = contract.setting(Settings.COMPRESSION_CODEC).orElse("zstd");
    long rowGroup = Long.parseLong(contract.setting(Settings.ROW_GROUP_ROWS).orElseThrow());
    return "FORMAT parquet, COMPRESSION "
        + codec
        + ", ROW_GROUP_SIZE "
        + rowGroup
        + ", FIELD_IDS {"
        + String.join(", ", fieldIds)
        + "}";
  }

  /**
   * A column's entry in DuckDB's FIELD_IDS option: the id, or for a STRUCT or LIST the id with
   * those of its fields or element ({@code {__duckdb_field_id: 2, element: 5}}), as Iceberg reads
   * them.
   */
  private static String fieldId(int id, org.apache.iceberg.types.Type type) {
    if (type.isStructType()) {
      List<String> parts = new ArrayList<>();
      parts.add("__duckdb_field_id: " + id);
      for (Types.NestedField field : type.asStructType().fields()) {
        parts.add(SqlText.identifier(field.name()) + ": " + fieldId(field.fieldId(), field.type()));
      }
      return "{" + String.join(", ", parts) + "}";
    }
    if (type.isListType()) {
      Types.ListType list = type.asListType();
      return "{__duckdb_field_id: "
          + id
          + ", element: "
          + fieldId(list.elementId(), list.elementType())
          + "}";
    }
    return String.valueOf(id);
  }
}

package dev.timelake;

import dev.timelake.catalog.Catalogs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;

/**
 * An append as another engine commits one through Iceberg's Java API (Spark, Trino and pyiceberg
 * write the same): one Parquet file per partition written by Iceberg's generic writer, one append
 * commit without Timelake's summary keys.
 */
public final class ExternalIcebergAppend {
  private ExternalIcebergAppend() {}

  /** Appends {@code rows} (column name → value, Iceberg's generic Java values) to the table. */
  public static void append(
      Path warehouse, String namespace, String name, List<Map<String, Object>> rows) {
    Table table = Catalogs.openEmbedded(warehouse).loadTable(TableIdentifier.of(namespace, name));
    Schema schema = table.schema();
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    Map<PartitionKey, List<Record>> byPartition = new java.util.LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      Record record = GenericRecord.create(schema);
      row.forEach(record::setField);
      PartitionKey partition = new PartitionKey(table.spec(), schema);
      partition.partition(wrapper.wrap(record));
      byPartition.computeIfAbsent(partition, p -> new java.util.ArrayList<>()).add(record);
    }
    AppendFiles append = table.newAppend();
    byPartition.forEach(
        (partition, records) -> append.appendFile(write(table, partition, records)));
    append.commit();
  }

  private static DataFile write(Table table, PartitionKey partition, List<Record> records) {
    String location =
        table
            .locationProvider()
            .newDataLocation(table.spec(), partition, "external-" + UUID.randomUUID() + ".parquet");
    try {
      DataWriter<Record> writer =
          Parquet.writeData(table.io().newOutputFile(location))
              .forTable(table)
              .createWriterFunc(GenericParquetWriter::create)
              .withSpec(table.spec())
              .withPartition(partition)
              .overwrite()
              .build();
      try (writer) {
        records.forEach(writer::write);
      }
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

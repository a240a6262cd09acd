package dev.timelake.spark;

import dev.timelake.TableName;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Timelake table as {@link TimelakeCatalog} lists it. Spark never scans it itself: {@link
 * ResolveTimelakeTables} replaces it with the deduplicated read first; without that rule (the
 * extension not configured) a scan fails naming the setting to add. Writes are appends through
 * {@link TimelakeWriteBuilder}; the table accepts any schema so that the append's own check, not
 * Spark's, says which column does not fit (and the insertion time, a column of the table, is not
 * asked of the DataFrame).
 */
final class TimelakeSparkTable implements SupportsRead, SupportsWrite {
  /**
   * Overwrites are declared so that Spark hands them to the write builder, which refuses them with
   * Timelake's message (a dynamic overwrite Spark refuses itself: it needs a V2 batch write).
   */
  private static final Set<TableCapability> CAPABILITIES =
      Set.of(
          TableCapability.BATCH_READ,
          TableCapability.V1_BATCH_WRITE,
          TableCapability.ACCEPT_ANY_SCHEMA,
          TableCapability.TRUNCATE,
          TableCapability.OVERWRITE_BY_FILTER);

  private final LakeAddress address;
  private final TableName table;
  private final StructType schema;

  TimelakeSparkTable(LakeAddress address, TableName table, String schemaJson) {
    this.address = address;
    this.table = table;
    this.schema = SparkSchemas.of(table, schemaJson);
  }

  LakeAddress address() {
    return address;
  }

  TableName table() {
    return table;
  }

  @Override
  public String name() {
    return table.toString();
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return CAPABILITIES;
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new TimelakeWriteBuilder(address, table, info);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    throw new UnsupportedOperationException(
        "Cannot read Timelake table "
            + table
            + " without Timelake's extension: set spark.sql.extensions="
            + TimelakeSparkExtensions.class.getName()
            + " so that copies are removed on read");
  }
}

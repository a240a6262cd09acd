package dev.timelake.spark;

import dev.timelake.TableName;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Timelake table as {@link TimelakeCatalog} lists it. Spark never scans it itself: {@link
 * ResolveTimelakeTables} replaces it with the deduplicated read first; without that rule (the
 * extension not configured) a scan fails naming the setting to add.
 */
final class TimelakeSparkTable implements SupportsRead {
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
    return Set.of(TableCapability.BATCH_READ);
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

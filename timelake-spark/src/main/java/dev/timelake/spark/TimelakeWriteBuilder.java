package dev.timelake.spark;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsOverwriteV2;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.InsertableRelation;

/**
 * A Spark SQL write to a Timelake table: an append ({@code df.writeTo("timelake.iot.readings")
 * .append()}, {@code INSERT INTO}) runs {@link TimelakeSpark#append} with the whole DataFrame;
 * option {@value #BATCH_ID} makes it idempotent. Overwrites ({@code overwrite(condition)}, {@code
 * INSERT OVERWRITE}) are refused here, with what to do instead, rather than by Spark's generic
 * message: Timelake tables change by appends (a newer write of a key replaces the stored one) and
 * deletes.
 */
final class TimelakeWriteBuilder implements SupportsOverwriteV2 {
  /** The write option carrying the append's batch id. */
  static final String BATCH_ID = "batch-id";

  private final LakeAddress address;
  private final TableName table;
  private final Optional<String> batchId;

  TimelakeWriteBuilder(LakeAddress address, TableName table, LogicalWriteInfo info) {
    this.address = address;
    this.table = table;
    Map<String, String> options = info.options().asCaseSensitiveMap();
    TreeSet<String> unknown = new TreeSet<>(options.keySet());
    unknown.remove(BATCH_ID);
    if (!unknown.isEmpty()) {
      throw TimelakeException.validation(
          "Cannot append to %s from Spark: unknown write option %s (expected %s)",
          table, String.join(", ", unknown), BATCH_ID);
    }
    this.batchId = Optional.ofNullable(options.get(BATCH_ID));
  }

  @Override
  public Write build() {
    return new V1Write() {
      @Override
      public InsertableRelation toInsertableRelation() {
        return (rows, overwrite) -> {
          if (overwrite) {
            throw overwriteRefused();
          }
          SparkAppend.run(rows, address, table.toString(), batchId);
        };
      }

      @Override
      public String description() {
        return "Timelake append to " + table;
      }
    };
  }

  @Override
  public WriteBuilder overwrite(Predicate[] predicates) {
    throw overwriteRefused();
  }

  @Override
  public WriteBuilder truncate() {
    throw overwriteRefused();
  }

  private TimelakeException overwriteRefused() {
    return TimelakeException.validation(
        "Cannot overwrite %s from Spark: Timelake tables take appends only (append(); a row"
            + " appended again corrects the stored one by the table's rules, DELETE in Timelake"
            + " removes rows)",
        table);
  }
}

package dev.timelake.catalog;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TimelakeException;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Types;

/**
 * Whether a time-series table still has the shape Timelake's rules need: its time, series-key and
 * insertion-time columns with their types, and the partitioning by time it was created with.
 * Another engine can change them (Iceberg's updateSchema or updateSpec, Spark's ALTER TABLE);
 * Timelake then refuses to write the table — appends, deletes, maintenance — until they are
 * restored, naming what changed, since writing by its rules would make files those rules cannot
 * read back.
 */
public final class ContractCheck {
  private ContractCheck() {}

  /** Throws naming the table, what changed and the way back, when {@code table} is breached. */
  public static void requireIntact(LoadedTable table, String what) {
    List<String> breaches = breaches(table);
    if (breaches.isEmpty()) {
      return;
    }
    Snapshot current = table.iceberg().currentSnapshot();
    throw TimelakeException.validation(
        "Cannot %s %s: its schema or partitioning was changed outside Timelake (%s; schema %d,"
            + " partition spec %d, current snapshot %s), so Timelake's rules cannot write it;"
            + " reads go on. Restore it with the engine that changed it (Iceberg's updateSchema"
            + " or updateSpec), or write the rows into a new table: CREATE TABLE … AS SELECT …"
            + " FROM %s",
        what,
        table.name(),
        String.join("; ", breaches),
        table.iceberg().schema().schemaId(),
        table.iceberg().spec().specId(),
        current == null ? "none" : Long.toString(current.snapshotId()),
        table.name());
  }

  /** What no longer fits the contract, one phrase each; empty when it all does. */
  static List<String> breaches(LoadedTable table) {
    TableContract contract = table.contract();
    List<String> breaches = new ArrayList<>();
    if (contract.timeColumn().isEmpty()) {
      return breaches; // a plain table: no rule depends on its shape
    }
    String time = contract.timeColumn().get();
    Optional<Column> timeColumn = column(contract, time);
    if (timeColumn.isEmpty()) {
      breaches.add("its time column '" + time + "' is gone");
    } else if (!isTime(timeColumn.get().type(), contract)) {
      breaches.add("its time column '" + time + "' is now " + timeColumn.get().type().sql());
    }
    for (String key : contract.seriesKey()) {
      if (column(contract, key).isEmpty()) {
        breaches.add("its series-key column '" + key + "' is gone");
      }
    }
    contract
        .ingestTimeColumn()
        .ifPresent(
            ingest -> {
              Optional<Column> column = column(contract, ingest);
              if (column.isEmpty()) {
                breaches.add("its insertion-time column '" + ingest + "' is gone");
              } else if (column.get().type().kind() != ColumnType.Kind.TIMESTAMPTZ) {
                breaches.add(
                    "its insertion-time column '"
                        + ingest
                        + "' is now "
                        + column.get().type().sql());
              }
            });
    String expected = partitionTransform(contract);
    if (timeColumn.isPresent() && !partitionedBy(table.iceberg(), time, expected)) {
      breaches.add(
          "it is partitioned by "
              + describe(table.iceberg())
              + ", not by "
              + expected
              + "("
              + time
              + ")");
    }
    return breaches;
  }

  private static Optional<Column> column(TableContract contract, String name) {
    return contract.columns().stream().filter(c -> c.name().equals(name)).findFirst();
  }

  private static boolean isTime(ColumnType type, TableContract contract) {
    return switch (type.kind()) {
      case TIMESTAMP, TIMESTAMPTZ -> true;
      case BIGINT -> contract.hasLogicalClock();
      default -> false;
    };
  }

  /** The transform Timelake partitions the time column by, as Iceberg names it. */
  private static String partitionTransform(TableContract contract) {
    if (contract.hasLogicalClock()) {
      return "truncate["
          + contract.setting(dev.timelake.table.Settings.PARTITION_WIDTH).orElse("?")
          + "]";
    }
    return contract.chunk().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** One partition field, {@code transform} of the time column, as Timelake creates it. */
  private static boolean partitionedBy(Table iceberg, String time, String transform) {
    PartitionSpec spec = iceberg.spec();
    if (spec.fields().size() != 1) {
      return false;
    }
    PartitionField field = spec.fields().get(0);
    Types.NestedField source = iceberg.schema().findField(field.sourceId());
    return source != null
        && source.name().equals(time)
        && field.transform().toString().equals(transform);
  }

  private static String describe(Table iceberg) {
    if (iceberg.spec().isUnpartitioned()) {
      return "nothing";
    }
    List<String> fields = new ArrayList<>();
    for (PartitionField field : iceberg.spec().fields()) {
      Types.NestedField source = iceberg.schema().findField(field.sourceId());
      fields.add(field.transform() + "(" + (source == null ? "?" : source.name()) + ")");
    }
    return String.join(", ", fields);
  }
}

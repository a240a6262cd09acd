package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.table.TableContract;
import java.util.Set;

/**
 * {@code sum(x)} of a numeric column: integers are stored as DECIMAL(38,0) (Iceberg has no 128-bit
 * integer) and answered as HUGEINT, as DuckDB sums them.
 */
final class SumAggregate extends SelfMergingAggregate {
  SumAggregate() {
    super("sum");
  }

  @Override
  Set<ColumnType.Kind> accepts() {
    return NUMERIC;
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    ColumnType input = columnType(call, raw);
    return switch (input.kind()) {
      case INTEGER, BIGINT -> ColumnType.decimal(38, 0);
      case DECIMAL -> ColumnType.decimal(38, input.scale());
      default -> ColumnType.DOUBLE;
    };
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    ColumnType input = columnType(call, raw);
    return switch (input.kind()) {
      case INTEGER, BIGINT -> "HUGEINT";
      case DECIMAL -> "DECIMAL(38," + input.scale() + ")";
      default -> "DOUBLE";
    };
  }

  @Override
  StateField.Merge merge() {
    return StateField.Merge.SUM;
  }
}

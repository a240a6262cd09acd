package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.table.TableContract;

/** {@code min(x)} and {@code max(x)}: stored as they are, merged by themselves. */
final class ExtremeAggregate extends SelfMergingAggregate {
  private final StateField.Merge merge;

  private ExtremeAggregate(String name, StateField.Merge merge) {
    super(name);
    this.merge = merge;
  }

  static ExtremeAggregate min() {
    return new ExtremeAggregate("min", StateField.Merge.MIN);
  }

  static ExtremeAggregate max() {
    return new ExtremeAggregate("max", StateField.Merge.MAX);
  }

  @Override
  public ColumnType storedType(AggregateCall call, TableContract raw) {
    return columnType(call, raw);
  }

  @Override
  public String resultType(AggregateCall call, TableContract raw) {
    return columnType(call, raw).sql();
  }

  @Override
  StateField.Merge merge() {
    return merge;
  }
}

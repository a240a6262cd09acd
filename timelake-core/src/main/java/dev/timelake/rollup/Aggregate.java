package dev.timelake.rollup;

import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;

/**
 * One aggregate function rollups know, everything about it in one place: how a call is read from
 * SQL, what a rollup stores for it, its mergeable state (computed from raw rows or from stored
 * rows, merged across rows and parts) and its final value. Implementations are stateless.
 *
 * <p>Exactness rests on the state: merging the states of disjoint sets of rows and taking the final
 * value must give the aggregate of their union (up to the rounding of floating-point sums).
 */
public interface Aggregate {
  /** The canonical function name, e.g. {@code avg}. */
  String name();

  /**
   * The call {@code function} makes on {@code raw}.
   *
   * @throws UnsupportedPart naming what is wrong when the call cannot be stored or answered
   */
  AggregateCall parse(Function function, TableContract raw);

  /** The column type a rollup stores the call's value in. */
  ColumnType storedType(AggregateCall call, TableContract raw);

  /** The DuckDB type the call has over raw rows; rollup answers are cast to it. */
  String resultType(AggregateCall call, TableContract raw);

  /** The call over raw rows, e.g. {@code avg("r"."value")}. */
  Expression overRows(AggregateCall call, RawColumns rows);

  /** The fields of the call's mergeable state. */
  List<StateField> state(AggregateCall call, TableContract raw);

  /** The state over raw rows: one aggregate expression per field. */
  List<Expression> stateOverRows(AggregateCall call, RawColumns rows);

  /** The final value from one merged state (scalar expressions, one per field). */
  Expression finalOf(AggregateCall call, List<Expression> state);

  /**
   * How {@code call} is computed from what a rollup stores, if it can be; {@code stored} is every
   * aggregate the rollup holds, {@code merge} whether its rows merge across series.
   */
  Optional<StoredForm> storedForm(
      AggregateCall call, List<StoredAggregate> stored, TableContract raw, SeriesMerge merge);

  /**
   * The call a rollup stores for {@code call} in a definition: the call itself, or the state that
   * answers it and its siblings (a gap state for {@code gap_count} and {@code gap_seconds}).
   */
  default AggregateCall storedCall(AggregateCall call) {
    return call;
  }

  /**
   * The output name of {@code call} when a definition gives none, before it is made a plain name
   * ({@code avg_value}, {@code integral:linear(value)} becomes {@code integral_linear_value}).
   */
  default String defaultName(AggregateCall call) {
    return call.column().map(c -> call.function() + "_" + c).orElse(call.function());
  }

  /**
   * An aggregate a rollup must also store so that {@code call} can be merged into coarser buckets
   * (avg needs a count of its column), given the calls it already stores; empty when none is
   * needed.
   */
  default Optional<AggregateCall> companion(
      AggregateCall call, List<AggregateCall> stored, TableContract raw) {
    return Optional.empty();
  }

  /**
   * The raw rows a rollup row must hold on average before answering this call from the rollup pays:
   * merging a large stored state costs as much as reading several readings.
   */
  default double minimumReadingsPerRow() {
    return 0;
  }

  /**
   * True when states merge only in time order, each covering one stretch of time with nothing of
   * another in between (time-weighted states): a range without a bucket, whose parts interleave in
   * time, is then not answered from rollups.
   */
  default boolean mergesAlongTimeOnly() {
    return false;
  }

  /** Merges {@code fields} (one expression per state field, over many rows) into one state. */
  default List<Expression> merge(AggregateCall call, TableContract raw, List<Expression> fields) {
    List<StateField> layout = state(call, raw);
    List<Expression> merged = new ArrayList<>(layout.size());
    for (int i = 0; i < layout.size(); i++) {
      StateField field = layout.get(i);
      Expression value = fields.get(i);
      merged.add(
          switch (field.merge()) {
            case SUM -> SyntaxTrees.call("sum", value);
            case MIN -> SyntaxTrees.call("min", value);
            case MAX -> SyntaxTrees.call("max", value);
            // A part without rows gives a NULL order; it must never be the first or last row.
            case FIRST ->
                SyntaxTrees.orderedCall("first", value, fields.get(field.orderField()), false);
            case LAST ->
                SyntaxTrees.orderedCall("last", value, fields.get(field.orderField()), true);
            case CALL -> SyntaxTrees.call(field.function(), value);
          });
    }
    return merged;
  }
}

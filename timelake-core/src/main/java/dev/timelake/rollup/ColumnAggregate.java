package dev.timelake.rollup;

import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.table.TableContract;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;

/**
 * What the aggregates of one raw column have in common: a call reads one column (or {@code *} for
 * count), has no DISTINCT, no FILTER and no other argument, and is ordered by the time column
 * exactly when the function needs an order.
 */
abstract class ColumnAggregate implements Aggregate {
  static final Set<ColumnType.Kind> NUMERIC =
      EnumSet.of(
          ColumnType.Kind.INTEGER,
          ColumnType.Kind.BIGINT,
          ColumnType.Kind.FLOAT,
          ColumnType.Kind.DOUBLE,
          ColumnType.Kind.DECIMAL);

  private final String name;

  ColumnAggregate(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  /** True when {@code *} is an argument ({@code count(*)}). */
  boolean takesRows() {
    return false;
  }

  /** True when the call must be ordered by the time column ({@code first_value}). */
  boolean orderedByTime() {
    return false;
  }

  /** The column types the call accepts; every type by default. */
  Set<ColumnType.Kind> accepts() {
    return EnumSet.allOf(ColumnType.Kind.class);
  }

  @Override
  public AggregateCall parse(Function function, TableContract raw) {
    if (function.isDistinct() || function.isUnique()) {
      throw new UnsupportedPart("DISTINCT is not allowed in aggregate " + function);
    }
    if (function.isIgnoreNulls() || function.getNullHandling() != null) {
      throw new UnsupportedPart("IGNORE or RESPECT NULLS is not allowed in " + function);
    }
    checkOrder(function, raw);
    if (isRows(function)) {
      if (!takesRows()) {
        throw new UnsupportedPart("only count may take *, found " + function);
      }
      return AggregateCall.countRows();
    }
    ExpressionList<?> parameters = function.getParameters();
    Optional<net.sf.jsqlparser.schema.Column> argument =
        parameters == null || parameters.size() != 1
            ? Optional.empty()
            : SyntaxNames.column(parameters.get(0));
    if (argument.isEmpty()) {
      throw new UnsupportedPart("aggregate " + function + " must take one column of " + raw.name());
    }
    Column column = columnOf(raw, SyntaxNames.unquote(argument.get().getColumnName()), function);
    if (!accepts().contains(column.type().kind())) {
      throw new UnsupportedPart(
          name
              + " of column '"
              + column.name()
              + "' of type "
              + column.type()
              + " is not supported");
    }
    return AggregateCall.of(name, column.name());
  }

  private void checkOrder(Function function, TableContract raw) {
    List<OrderByElement> order = function.getOrderByElements();
    boolean ordered = order != null && !order.isEmpty();
    String time = raw.timeColumn().orElse("time");
    if (orderedByTime()) {
      boolean byTime =
          ordered
              && order.size() == 1
              && order.get(0).isAsc()
              && !order.get(0).isAscDescPresent()
              && order.get(0).getNullOrdering() == null
              && SyntaxNames.column(order.get(0).getExpression())
                  .map(c -> SyntaxNames.unquote(c.getColumnName()).equalsIgnoreCase(time))
                  .orElse(false);
      if (!byTime) {
        throw new UnsupportedPart(
            function
                + " must be ordered by the time column: "
                + name
                + "(x ORDER BY "
                + time
                + ")");
      }
    } else if (ordered) {
      throw new UnsupportedPart(
          "ORDER BY is only allowed in first_value and last_value, found " + function);
    }
  }

  private static boolean isRows(Function function) {
    ExpressionList<?> parameters = function.getParameters();
    return function.isAllColumns()
        || (parameters != null
            && parameters.size() == 1
            && parameters.get(0) instanceof AllColumns);
  }

  static Column columnOf(TableContract raw, String name, Expression context) {
    return raw.columns().stream()
        .filter(c -> c.name().equalsIgnoreCase(name))
        .findFirst()
        .orElseThrow(
            () ->
                new UnsupportedPart(
                    "column '" + name + "' of " + context + " is not a column of " + raw.name()));
  }

  /** The type of the call's column. */
  static ColumnType columnType(AggregateCall call, TableContract raw) {
    return raw.column(call.requireColumn()).type();
  }

  /** True when the call's column can hold NULL. */
  static boolean nullable(AggregateCall call, TableContract raw) {
    return call.column().map(c -> raw.column(c).isNullable()).orElse(false);
  }

  /** The stored aggregate computing {@code call}, if the rollup holds one. */
  static Optional<StoredAggregate> find(List<StoredAggregate> stored, AggregateCall call) {
    return stored.stream().filter(s -> s.call().equals(call)).findFirst();
  }

  /**
   * The stored count of the non-NULL values of {@code call}'s column: {@code count(x)}, or {@code
   * count(*)} when the column cannot be NULL.
   */
  static Optional<StoredAggregate> findCount(
      List<StoredAggregate> stored, AggregateCall call, TableContract raw) {
    Optional<StoredAggregate> count =
        call.column().flatMap(c -> find(stored, AggregateCall.of("count", c)));
    if (count.isPresent() || nullable(call, raw)) {
      return count;
    }
    return find(stored, AggregateCall.countRows());
  }
}

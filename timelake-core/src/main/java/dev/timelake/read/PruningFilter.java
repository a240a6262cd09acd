package dev.timelake.read;

import dev.timelake.ColumnType;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.schema.Column;
import org.apache.iceberg.expressions.Expressions;

/**
 * Turns the WHERE clause around one table reference into an Iceberg filter for file pruning. Only
 * top-level AND terms that compare the time column or a series-key column with constants are used
 * (comparisons, BETWEEN, IN, and ORs of those); every other term is ignored, which only means fewer
 * files are pruned. Filters on other columns never prune, so dedup always sees every copy of a key.
 */
final class PruningFilter {
  private final TableContract contract;
  private final Set<String> qualifiers;
  private final Set<String> unqualifiedColumns;
  private final ConstantEvaluator constants;
  private final dev.timelake.index.IndexIntervals replacedWithin;

  /**
   * @param qualifiers lower-case names that refer to this table in column references (alias or
   *     table name)
   * @param unqualifiedColumns key columns that unqualified references may be taken to mean
   */
  PruningFilter(
      TableContract contract,
      Set<String> qualifiers,
      Set<String> unqualifiedColumns,
      ConstantEvaluator constants) {
    this.contract = contract;
    this.qualifiers = qualifiers;
    this.unqualifiedColumns = unqualifiedColumns;
    this.constants = constants;
    this.replacedWithin =
        contract.replacesWithinInterval()
            ? dev.timelake.index.IndexIntervals.of(contract).orElseThrow()
            : null;
  }

  /** The Iceberg filter implied by {@code where}; always-true when nothing applies. */
  org.apache.iceberg.expressions.Expression of(Expression where) {
    org.apache.iceberg.expressions.Expression filter = Expressions.alwaysTrue();
    if (where == null) {
      return filter;
    }
    for (Expression term : SyntaxTrees.conjuncts(where)) {
      Optional<org.apache.iceberg.expressions.Expression> converted = convert(term);
      if (converted.isPresent()) {
        filter = Expressions.and(filter, converted.get());
      }
    }
    return filter;
  }

  private Optional<org.apache.iceberg.expressions.Expression> convert(Expression term) {
    Expression expression = SyntaxTrees.unparenthesized(term);
    if (expression instanceof OrExpression or) {
      Optional<org.apache.iceberg.expressions.Expression> left = convert(or.getLeftExpression());
      Optional<org.apache.iceberg.expressions.Expression> right = convert(or.getRightExpression());
      return left.isPresent() && right.isPresent()
          ? Optional.of(Expressions.or(left.get(), right.get()))
          : Optional.empty();
    }
    if (expression instanceof AndExpression) {
      List<org.apache.iceberg.expressions.Expression> parts = new ArrayList<>();
      for (Expression part : SyntaxTrees.conjuncts(expression)) {
        convert(part).ifPresent(parts::add);
      }
      return parts.stream().reduce(Expressions::and);
    }
    if (expression instanceof Between between && !between.isNot()) {
      return column(between.getLeftExpression())
          .flatMap(
              c -> {
                Optional<Object> low = value(c, between.getBetweenExpressionStart(), true);
                Optional<Object> high = value(c, between.getBetweenExpressionEnd(), false);
                if (low.isEmpty() || high.isEmpty()) {
                  return Optional.empty();
                }
                if (isReplacedTime(c)) {
                  return Optional.of(
                      Expressions.and(intervalsFrom(c, low.get()), intervalsUpTo(c, high.get())));
                }
                return Optional.of(
                    Expressions.and(
                        Expressions.greaterThanOrEqual(c, low.get()),
                        Expressions.lessThanOrEqual(c, high.get())));
              });
    }
    if (expression instanceof InExpression in && !in.isNot()) {
      return inList(in);
    }
    if (expression instanceof ComparisonOperator comparison) {
      return comparison(comparison);
    }
    return Optional.empty();
  }

  private Optional<org.apache.iceberg.expressions.Expression> inList(InExpression in) {
    Optional<String> column = column(in.getLeftExpression());
    if (column.isEmpty() || !(in.getRightExpression() instanceof ExpressionList<?> list)) {
      return Optional.empty();
    }
    List<Object> values = new ArrayList<>();
    for (Expression item : list) {
      Optional<Object> value = value(column.get(), item, true);
      if (value.isEmpty() || isVolatileTime(column.get(), item)) {
        return Optional.empty();
      }
      values.add(value.get());
    }
    if (values.isEmpty()) {
      return Optional.empty();
    }
    if (isReplacedTime(column.get())) {
      org.apache.iceberg.expressions.Expression any = Expressions.alwaysFalse();
      for (Object value : values) {
        any = Expressions.or(any, interval(column.get(), value));
      }
      return Optional.of(any);
    }
    return Optional.of(Expressions.in(column.get(), values));
  }

  private Optional<org.apache.iceberg.expressions.Expression> comparison(
      ComparisonOperator comparison) {
    Optional<String> left = column(comparison.getLeftExpression());
    Optional<String> right = column(comparison.getRightExpression());
    boolean columnOnLeft = left.isPresent();
    if (columnOnLeft == right.isPresent()) {
      return Optional.empty();
    }
    String column = columnOnLeft ? left.get() : right.get();
    Expression constant =
        columnOnLeft ? comparison.getRightExpression() : comparison.getLeftExpression();
    // Which side of the column the constant bounds, after moving the column to the left.
    boolean lowerBound =
        (comparison instanceof GreaterThan || comparison instanceof GreaterThanEquals)
            == columnOnLeft;
    Optional<Object> value = value(column, constant, lowerBound);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    Object v = value.get();
    if (comparison instanceof EqualsTo) {
      if (isVolatileTime(column, constant)) {
        return Optional.empty();
      }
      return Optional.of(
          isReplacedTime(column) ? interval(column, v) : Expressions.equal(column, v));
    }
    boolean inclusive =
        comparison instanceof GreaterThanEquals || comparison instanceof MinorThanEquals;
    if (!(comparison instanceof GreaterThan
        || comparison instanceof GreaterThanEquals
        || comparison instanceof MinorThan
        || comparison instanceof MinorThanEquals)) {
      return Optional.empty();
    }
    if (isReplacedTime(column)) {
      return Optional.of(lowerBound ? intervalsFrom(column, v) : intervalsUpTo(column, v));
    }
    if (lowerBound) {
      return Optional.of(
          inclusive
              ? Expressions.greaterThanOrEqual(column, v)
              : Expressions.greaterThan(column, v));
    }
    return Optional.of(
        inclusive ? Expressions.lessThanOrEqual(column, v) : Expressions.lessThan(column, v));
  }

  /**
   * True for the time column of a table whose rows replace the others of their interval: a row
   * outside the query's range may replace one inside it, so bounds on time prune by whole
   * intervals.
   */
  private boolean isReplacedTime(String column) {
    return replacedWithin != null && contract.timeColumn().map(column::equals).orElse(false);
  }

  /** Rows in the intervals from the one holding {@code value} on. */
  private org.apache.iceberg.expressions.Expression intervalsFrom(String column, Object value) {
    long micros = ((Number) value).longValue();
    return Expressions.greaterThanOrEqual(column, replacedWithin.start(replacedWithin.id(micros)));
  }

  /** Rows in the intervals up to the one holding {@code value}, which they include. */
  private org.apache.iceberg.expressions.Expression intervalsUpTo(String column, Object value) {
    long end = replacedWithin.end(replacedWithin.id(((Number) value).longValue()));
    return end == Long.MAX_VALUE ? Expressions.alwaysTrue() : Expressions.lessThan(column, end);
  }

  /** Rows in the interval holding {@code value}. */
  private org.apache.iceberg.expressions.Expression interval(String column, Object value) {
    return Expressions.and(intervalsFrom(column, value), intervalsUpTo(column, value));
  }

  private boolean isVolatileTime(String column, Expression constant) {
    return contract.timeColumn().map(column::equals).orElse(false)
        && ConstantEvaluator.isVolatile(constant);
  }

  /**
   * The value of a constant compared with {@code column}. A volatile time ({@code now()}) is
   * evaluated before the query runs, so it is earlier than the query's own: safe as a lower bound
   * only.
   */
  private Optional<Object> value(String column, Expression constant, boolean lowerBound) {
    if (!ConstantEvaluator.isConstant(constant)) {
      return Optional.empty();
    }
    if (!lowerBound && isVolatileTime(column, constant)) {
      return Optional.empty();
    }
    ColumnType type = contract.column(column).type();
    return switch (type.kind()) {
      case TIMESTAMPTZ -> constants.micros(constant).map(v -> (Object) v);
      // A TIMESTAMP column compares with a TIMESTAMPTZ constant in the session's zone (UTC).
      case TIMESTAMP -> constants.evaluate(constant, "epoch_us(CAST((", ") AS TIMESTAMP))");
      case VARCHAR -> constants.evaluate(constant, "CAST((", ") AS VARCHAR)");
      case INTEGER -> constants.evaluate(constant, "CAST((", ") AS INTEGER)");
      case BIGINT -> constants.evaluate(constant, "CAST((", ") AS BIGINT)");
      // A UBIGINT entity column, stored as DECIMAL(20,0); TRY_CAST: a constant outside its range
      // prunes nothing.
      case DECIMAL ->
          contract.isUnsigned(column)
              ? constants.evaluate(constant, "TRY_CAST((", ") AS DECIMAL(20,0))")
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  /** The key column a reference means, if it is one of this table's time or series-key columns. */
  private Optional<String> column(Expression expression) {
    Column reference = SyntaxNames.column(SyntaxTrees.unparenthesized(expression)).orElse(null);
    if (reference == null) {
      return Optional.empty();
    }
    // Quoted names ("tag", "r"."time") prune like bare ones: generated SQL quotes every name.
    String name = SyntaxNames.unquote(reference.getColumnName());
    String qualifier =
        reference.getTable() == null || reference.getTable().getName() == null
            ? null
            : SyntaxNames.unquote(reference.getTable().getName())
                .toLowerCase(java.util.Locale.ROOT);
    Optional<String> keyColumn =
        contract.keyColumns().stream().filter(k -> k.equalsIgnoreCase(name)).findFirst();
    if (keyColumn.isEmpty()) {
      return Optional.empty();
    }
    if (qualifier == null) {
      return unqualifiedColumns.contains(keyColumn.get()) ? keyColumn : Optional.empty();
    }
    return qualifiers.contains(qualifier) ? keyColumn : Optional.empty();
  }
}

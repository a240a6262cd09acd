package dev.timelake.route;

import static java.util.Objects.requireNonNull;

import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.rollup.UnsupportedPart;
import dev.timelake.table.TableContract;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * A routed query's WHERE, split into the instants its time terms keep (comparisons of the time
 * column with constants, BETWEEN, IN lists, and ANDs and ORs of those; {@code now()} evaluated once
 * for the whole statement), its filters on series-key columns (which every part applies as
 * written), and its filters on one other column with constants ({@code quality = 0}), which only a
 * rollup filtered by the same terms answers ({@link dev.timelake.rollup.RollupFilter}). Any other
 * term makes the query unroutable.
 */
record WhereSplit(
    IntervalSet time,
    List<Expression> keyFilters,
    Set<String> filterColumns,
    List<Expression> rowFilters) {
  WhereSplit {
    requireNonNull(time, "time is null");
    keyFilters = List.copyOf(keyFilters);
    rowFilters = List.copyOf(rowFilters);
    filterColumns = Set.copyOf(filterColumns);
  }

  /**
   * Splits {@code where} (null for none) of a SELECT reading {@code raw} as {@code alias}.
   *
   * @throws UnsupportedPart naming a term that is neither
   */
  static WhereSplit of(
      Expression where, TableContract raw, String alias, ConstantEvaluator constants) {
    Splitter splitter = new Splitter(raw, alias, constants);
    IntervalSet time = IntervalSet.all();
    List<Expression> rowFilters = new ArrayList<>();
    if (where != null) {
      for (Expression term : SyntaxTrees.conjuncts(where)) {
        Optional<IntervalSet> instants = splitter.instants(term);
        if (instants.isPresent()) {
          time = time.intersect(instants.get());
        } else if (splitter.readsOnlyKeys(term)) {
          splitter.keyFilters.add(term);
        } else if (dev.timelake.rollup.RollupFilter.column(term, raw).isPresent()) {
          rowFilters.add(term);
        } else {
          throw new UnsupportedPart(
              "WHERE "
                  + term
                  + " filters on a column no rollup holds (the time column, series-key columns,"
                  + " and terms of one other column with constants that a filtered rollup keeps"
                  + " may be filtered)");
        }
      }
    }
    return new WhereSplit(time, splitter.keyFilters, splitter.columns, rowFilters);
  }

  private static final class Splitter {
    private final TableContract raw;
    private final String alias;
    private final ConstantEvaluator constants;
    private final String time;
    private final List<Expression> keyFilters = new ArrayList<>();
    private final Set<String> columns = new TreeSet<>();

    Splitter(TableContract raw, String alias, ConstantEvaluator constants) {
      this.raw = raw;
      this.alias = alias;
      this.constants = constants;
      this.time = raw.timeColumn().orElseThrow();
    }

    /** The instants a term on the time column keeps; empty when it is not such a term. */
    Optional<IntervalSet> instants(Expression term) {
      Expression current = SyntaxTrees.unparenthesized(term);
      if (current instanceof AndExpression and) {
        return both(and, true);
      }
      if (current instanceof OrExpression or) {
        return both(or, false);
      }
      if (current instanceof Between between
          && !between.isNot()
          && isTime(between.getLeftExpression())) {
        Optional<Long> low = micros(between.getBetweenExpressionStart());
        Optional<Long> high = micros(between.getBetweenExpressionEnd());
        return low.isPresent() && high.isPresent()
            ? Optional.of(IntervalSet.of(low.get(), after(high.get())))
            : Optional.empty();
      }
      if (current instanceof InExpression in
          && !in.isNot()
          && isTime(in.getLeftExpression())
          && in.getRightExpression() instanceof ExpressionList<?> list) {
        List<TimeInterval> points = new ArrayList<>();
        for (Expression item : list) {
          Optional<Long> value = micros(item);
          if (value.isEmpty()) {
            return Optional.empty();
          }
          points.add(new TimeInterval(value.get(), after(value.get())));
        }
        return Optional.of(IntervalSet.of(points));
      }
      if (current instanceof BinaryExpression comparison && isComparison(current)) {
        return comparison(comparison);
      }
      return Optional.empty();
    }

    private Optional<IntervalSet> both(BinaryExpression pair, boolean and) {
      Optional<IntervalSet> left = instants(pair.getLeftExpression());
      Optional<IntervalSet> right = instants(pair.getRightExpression());
      if (left.isEmpty() || right.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(and ? left.get().intersect(right.get()) : left.get().union(right.get()));
    }

    private static boolean isComparison(Expression expression) {
      return expression instanceof GreaterThan
          || expression instanceof GreaterThanEquals
          || expression instanceof MinorThan
          || expression instanceof MinorThanEquals
          || expression instanceof EqualsTo;
    }

    private Optional<IntervalSet> comparison(BinaryExpression comparison) {
      boolean left = isTime(comparison.getLeftExpression());
      boolean right = isTime(comparison.getRightExpression());
      if (left == right) {
        return Optional.empty();
      }
      Optional<Long> value =
          micros(left ? comparison.getRightExpression() : comparison.getLeftExpression());
      if (value.isEmpty()) {
        return Optional.empty();
      }
      long v = value.get();
      if (comparison instanceof EqualsTo) {
        return Optional.of(IntervalSet.of(v, after(v)));
      }
      boolean greater =
          comparison instanceof GreaterThan || comparison instanceof GreaterThanEquals;
      boolean inclusive =
          comparison instanceof GreaterThanEquals || comparison instanceof MinorThanEquals;
      // After moving the time column to the left: time > v, time >= v, time < v, time <= v.
      boolean lower = greater == left;
      return Optional.of(
          lower
              ? IntervalSet.of(inclusive ? v : after(v), Long.MAX_VALUE)
              : IntervalSet.of(Long.MIN_VALUE, inclusive ? after(v) : v));
    }

    /** The next instant, saturating at the open end. */
    private static long after(long micros) {
      return micros == Long.MAX_VALUE ? Long.MAX_VALUE : micros + 1;
    }

    private Optional<Long> micros(Expression expression) {
      return ConstantEvaluator.isConstant(expression)
          ? constants.micros(expression)
          : Optional.empty();
    }

    private boolean isTime(Expression expression) {
      return resolve(SyntaxTrees.unparenthesized(expression)).map(time::equals).orElse(false);
    }

    /** The raw column a reference means, when it names this table's column. */
    private Optional<String> resolve(Expression expression) {
      Optional<Column> column = SyntaxNames.column(expression);
      if (column.isEmpty()) {
        return Optional.empty();
      }
      Column reference = column.get();
      if (reference.getTable() != null
          && reference.getTable().getName() != null
          && !SyntaxNames.unquote(reference.getTable().getName()).equalsIgnoreCase(alias)) {
        return Optional.empty();
      }
      String name = SyntaxNames.unquote(reference.getColumnName());
      return raw.columnNames().stream().filter(name::equalsIgnoreCase).findFirst();
    }

    /**
     * True when a subquery refers to this table by its name: it would be evaluated against each
     * part's rows, and a rollup part has other columns.
     */
    private boolean correlated(Select subquery) {
      AtomicBoolean refers = new AtomicBoolean(false);
      String text = subquery.toString();
      for (String word : text.split("[^A-Za-z0-9_\"]+")) {
        if (SyntaxNames.unquote(word).equalsIgnoreCase(alias)) {
          refers.set(true);
        }
      }
      return refers.get();
    }

    /** True when every column the term reads outside subqueries is a series-key column. */
    boolean readsOnlyKeys(Expression term) {
      AtomicBoolean keysOnly = new AtomicBoolean(true);
      Set<String> read = new TreeSet<>();
      term.accept(
          new ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column column, S context) {
              Optional<String> name = resolve(column);
              if (name.isPresent() && raw.seriesKey().contains(name.get())) {
                read.add(name.get());
              } else {
                keysOnly.set(false);
              }
              return null;
            }

            @Override
            public <S> Void visit(ParenthesedSelect select, S context) {
              keysOnly.set(keysOnly.get() && !correlated(select));
              return null;
            }

            @Override
            public <S> Void visit(Select select, S context) {
              keysOnly.set(keysOnly.get() && !correlated(select));
              return null;
            }

            @Override
            public <S> Void visit(AnalyticExpression analytic, S context) {
              keysOnly.set(false);
              return null;
            }
          },
          null);
      if (keysOnly.get() && !read.isEmpty()) {
        columns.addAll(read);
        return true;
      }
      return false;
    }
  }
}

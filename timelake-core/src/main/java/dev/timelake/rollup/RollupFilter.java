package dev.timelake.rollup;

import dev.timelake.engine.ColumnReferences;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.Expression;
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

/**
 * The WHERE of a filtered rollup, or the filter terms of a query as routing compares them: ANDed
 * terms that each read one raw column other than the time column, with constants. Terms on
 * series-key columns ({@link #keyTerms}) may be narrowed by a query (a query of {@code tag =
 * 'L01-7'} is answered by a rollup of {@code tag LIKE 'L01-%'}, filtering its rows again); terms on
 * other columns ({@link #rowTerms}) must be the query's own, since a rollup's rows cannot be
 * filtered on a column it does not hold. Terms are compared by their text with column qualifiers
 * left out.
 */
public record RollupFilter(List<Expression> keyTerms, List<Expression> rowTerms) {
  /** No filter: a rollup of every row. */
  public static final RollupFilter NONE = new RollupFilter(List.of(), List.of());

  public RollupFilter {
    keyTerms = List.copyOf(keyTerms);
    rowTerms = List.copyOf(rowTerms);
  }

  /**
   * The filter {@code where} (null: none) of a rollup over {@code raw} grouped by {@code keys},
   * split into terms: key terms read one of {@code keys}.
   *
   * @throws UnsupportedPart naming a term that reads the time column, no column or several, a
   *     subquery or window, or anything that is not constant
   */
  public static RollupFilter of(Expression where, TableContract raw, List<String> keys) {
    if (where == null) {
      return NONE;
    }
    for (Expression term : SyntaxTrees.conjuncts(where)) {
      column(term, raw).orElseThrow(() -> unsupported(term, raw));
    }
    return split(where, keys);
  }

  /** The filter a rollup grouped by {@code keys} stores as {@code where}, already checked. */
  public static RollupFilter split(Expression where, List<String> keys) {
    if (where == null) {
      return NONE;
    }
    List<Expression> keyTerms = new ArrayList<>();
    List<Expression> rowTerms = new ArrayList<>();
    for (Expression term : SyntaxTrees.conjuncts(where)) {
      boolean onKey =
          columnOf(term).map(c -> keys.stream().anyMatch(c::equalsIgnoreCase)).orElse(false);
      (onKey ? keyTerms : rowTerms).add(term);
    }
    return new RollupFilter(keyTerms, rowTerms);
  }

  /** The name of the column a checked term reads (the first column reference in it). */
  public static Optional<String> columnOf(Expression term) {
    return ColumnReferences.of(term).orElse(List.of()).stream()
        .findFirst()
        .map(column -> SyntaxNames.unquote(column.getColumnName()));
  }

  /** True for a rollup of every row. */
  public boolean isEmpty() {
    return keyTerms.isEmpty() && rowTerms.isEmpty();
  }

  /** Every term, key terms first. */
  public List<Expression> terms() {
    List<Expression> terms = new ArrayList<>(keyTerms);
    terms.addAll(rowTerms);
    return terms;
  }

  /** The row terms' texts. */
  public Set<String> rowTexts() {
    Set<String> texts = new LinkedHashSet<>();
    rowTerms.forEach(term -> texts.add(text(term)));
    return texts;
  }

  /** The terms ANDed, as a WHERE; null for none. */
  public Expression where() {
    return isEmpty() ? null : SyntaxTrees.and(terms());
  }

  /**
   * E.g. {@code (tag LIKE 'L01-%') AND (quality = 0)}, each term in parentheses, as a rollup stores
   * it in {@code timelake.rollup-filter}; empty for none.
   */
  @Override
  public String toString() {
    return isEmpty() ? "" : text(where());
  }

  /** The raw column a term reads, when it reads exactly one other than the time column. */
  public static Optional<String> column(Expression term, TableContract raw) {
    Optional<List<Column>> references = ColumnReferences.of(term);
    if (references.isEmpty() || ConstantEvaluator.isVolatile(term)) {
      return Optional.empty();
    }
    Set<String> read = new LinkedHashSet<>();
    for (Column reference : references.get()) {
      String name = SyntaxNames.unquote(reference.getColumnName());
      Optional<String> found =
          raw.columnNames().stream().filter(name::equalsIgnoreCase).findFirst();
      if (found.isEmpty()) {
        return Optional.empty();
      }
      read.add(found.get());
    }
    if (read.size() != 1) {
      return Optional.empty();
    }
    String column = read.iterator().next();
    return raw.timeColumn().filter(column::equals).isPresent()
        ? Optional.empty()
        : Optional.of(column);
  }

  /**
   * The term's text as terms are compared: column qualifiers left out, and a comparison with its
   * constant on the left turned around ({@code 0 = quality} reads {@code quality = 0}, {@code 5 <
   * line} reads {@code line > 5}).
   */
  public static String text(Expression term) {
    return unqualified(term, () -> turnedAround(term).orElseGet(term::toString));
  }

  private static final Map<String, String> TURNED =
      Map.of("=", "=", "<>", "<>", "!=", "!=", "<", ">", "<=", ">=", ">", "<", ">=", "<=");

  private static Optional<String> turnedAround(Expression term) {
    if (term instanceof ComparisonOperator comparison
        && TURNED.containsKey(comparison.getStringExpression())
        && ConstantEvaluator.isConstant(comparison.getLeftExpression())
        && !ConstantEvaluator.isConstant(comparison.getRightExpression())) {
      return Optional.of(
          comparison.getRightExpression()
              + " "
              + TURNED.get(comparison.getStringExpression())
              + " "
              + comparison.getLeftExpression());
    }
    return Optional.empty();
  }

  /** What {@code use} gives while the term's column references have no qualifier. */
  private static <T> T unqualified(Expression term, java.util.function.Supplier<T> use) {
    List<Column> columns = ColumnReferences.of(term).orElse(List.of());
    List<net.sf.jsqlparser.schema.Table> tables = new ArrayList<>();
    columns.forEach(column -> tables.add(column.getTable()));
    try {
      columns.forEach(column -> column.setTable(null));
      return use.get();
    } finally {
      for (int i = 0; i < columns.size(); i++) {
        columns.get(i).setTable(tables.get(i));
      }
    }
  }

  /**
   * True when {@code query}'s terms imply {@code term} (a key term of a rollup's filter): one of
   * them is the same term; or reads the same column and keeps only constants that satisfy it
   * ({@code tag = 'a'}, {@code tag IN ('a', 'b')} imply {@code tag LIKE 'a%'} when both match); or
   * is a narrower range of it ({@code line >= 3} implies {@code line > 1}). Constants are compared
   * by DuckDB.
   */
  public static boolean implies(
      List<Expression> query, Expression term, TableContract raw, ConstantEvaluator constants) {
    String text = text(term);
    Optional<String> column = column(term, raw);
    for (Expression candidate : query) {
      if (text(candidate).equals(text)) {
        return true;
      }
      if (column.isEmpty() || !column.equals(column(candidate, raw))) {
        continue;
      }
      Optional<List<Expression>> points = points(candidate, column.get());
      if (points.isPresent() && satisfiedByAll(term, column.get(), points.get(), constants)) {
        return true;
      }
      if (narrower(candidate, term, column.get(), constants)) {
        return true;
      }
    }
    return false;
  }

  /** The texts of the key terms of {@code filters} that {@code query}'s terms imply. */
  public static Set<String> implied(
      List<Expression> query,
      List<RollupFilter> filters,
      TableContract raw,
      ConstantEvaluator constants) {
    Set<String> implied = new java.util.TreeSet<>();
    for (RollupFilter filter : filters) {
      for (Expression term : filter.keyTerms()) {
        String text = text(term);
        if (!implied.contains(text) && implies(query, term, raw, constants)) {
          implied.add(text);
        }
      }
    }
    return implied;
  }

  /** The constants of {@code column = c} or {@code column IN (c, …)}. */
  private static Optional<List<Expression>> points(Expression term, String column) {
    Expression bare = SyntaxTrees.unparenthesized(term);
    if (bare instanceof EqualsTo equals) {
      if (isColumn(equals.getLeftExpression(), column)
          && ConstantEvaluator.isConstant(equals.getRightExpression())) {
        return Optional.of(List.of(equals.getRightExpression()));
      }
      if (isColumn(equals.getRightExpression(), column)
          && ConstantEvaluator.isConstant(equals.getLeftExpression())) {
        return Optional.of(List.of(equals.getLeftExpression()));
      }
    }
    if (bare instanceof InExpression in
        && !in.isNot()
        && isColumn(in.getLeftExpression(), column)
        && in.getRightExpression() instanceof ExpressionList<?> list
        && list.stream().allMatch(ConstantEvaluator::isConstant)) {
      return Optional.of(new ArrayList<>(list));
    }
    return Optional.empty();
  }

  /**
   * True when {@code term} holds for every one of the constants bound to its column: the term is
   * evaluated by DuckDB over a one-row relation whose column of that name holds the constant.
   */
  private static boolean satisfiedByAll(
      Expression term, String column, List<Expression> points, ConstantEvaluator constants) {
    for (Expression point : points) {
      Optional<Object> holds =
          unqualified(
              term,
              () ->
                  constants.evaluate(
                      term,
                      "(SELECT CAST((",
                      ") AS BOOLEAN) FROM (SELECT "
                          + point
                          + " AS "
                          + dev.timelake.engine.SqlText.identifier(column)
                          + "))"));
      if (!holds.map(Boolean.TRUE::equals).orElse(false)) {
        return false;
      }
    }
    return true;
  }

  private static boolean narrower(
      Expression query, Expression term, String column, ConstantEvaluator constants) {
    Optional<Bound> queryLow = bound(query, column, true);
    Optional<Bound> queryHigh = bound(query, column, false);
    Optional<Bound> termLow = bound(term, column, true);
    Optional<Bound> termHigh = bound(term, column, false);
    if (termLow.isEmpty() && termHigh.isEmpty()) {
      return false;
    }
    if (termLow.isPresent()
        && (queryLow.isEmpty() || !within(queryLow.get(), termLow.get(), true, constants))) {
      return false;
    }
    return termHigh.isEmpty()
        || (queryHigh.isPresent() && within(queryHigh.get(), termHigh.get(), false, constants));
  }

  /** A lower or upper bound of a range term: the constant and whether it is included. */
  private record Bound(Expression value, boolean inclusive) {}

  private static Optional<Bound> bound(Expression term, String column, boolean lower) {
    Expression bare = SyntaxTrees.unparenthesized(term);
    if (bare instanceof Between between
        && !between.isNot()
        && isColumn(between.getLeftExpression(), column)) {
      Expression value =
          lower ? between.getBetweenExpressionStart() : between.getBetweenExpressionEnd();
      return ConstantEvaluator.isConstant(value)
          ? Optional.of(new Bound(value, true))
          : Optional.empty();
    }
    if (!(bare instanceof BinaryExpression comparison)
        || !(bare instanceof GreaterThan
            || bare instanceof GreaterThanEquals
            || bare instanceof MinorThan
            || bare instanceof MinorThanEquals)) {
      return Optional.empty();
    }
    boolean left = isColumn(comparison.getLeftExpression(), column);
    Expression value = left ? comparison.getRightExpression() : comparison.getLeftExpression();
    if (!(left || isColumn(comparison.getRightExpression(), column))
        || !ConstantEvaluator.isConstant(value)) {
      return Optional.empty();
    }
    boolean greater = bare instanceof GreaterThan || bare instanceof GreaterThanEquals;
    boolean inclusive = bare instanceof GreaterThanEquals || bare instanceof MinorThanEquals;
    // With the column on the left: column > v is a lower bound.
    boolean isLower = greater == left;
    return isLower == lower ? Optional.of(new Bound(value, inclusive)) : Optional.empty();
  }

  /** True when the query's bound lies inside the term's: no value the query keeps is cut. */
  private static boolean within(
      Bound query, Bound term, boolean lower, ConstantEvaluator constants) {
    String operator =
        lower
            ? (query.inclusive() && !term.inclusive() ? ">" : ">=")
            : (query.inclusive() && !term.inclusive() ? "<" : "<=");
    BinaryExpression comparison =
        switch (operator) {
          case ">" -> new GreaterThan();
          case ">=" -> new GreaterThanEquals();
          case "<" -> new MinorThan();
          default -> new MinorThanEquals();
        };
    comparison.setLeftExpression(query.value());
    comparison.setRightExpression(term.value());
    return constants
        .evaluate(comparison, "CAST((", ") AS BOOLEAN)")
        .map(Boolean.TRUE::equals)
        .orElse(false);
  }

  private static boolean isColumn(Expression expression, String column) {
    return SyntaxNames.column(SyntaxTrees.unparenthesized(expression))
        .map(c -> SyntaxNames.unquote(c.getColumnName()).equalsIgnoreCase(column))
        .orElse(false);
  }

  private static UnsupportedPart unsupported(Expression term, TableContract raw) {
    return new UnsupportedPart(
        "WHERE "
            + term
            + ": a rollup's filter terms each compare one column other than "
            + raw.timeColumn().orElse("the time column")
            + " with constants (quality = 0, tag LIKE 'L01-%', line IN (1, 2)); no subquery,"
            + " other table or non-constant");
  }
}

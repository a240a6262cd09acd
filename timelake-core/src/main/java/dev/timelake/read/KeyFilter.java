package dev.timelake.read;

import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.util.deparser.ExpressionDeParser;
import net.sf.jsqlparser.util.deparser.SelectDeParser;

/**
 * The part of a WHERE clause that may run before copies are removed: the conjuncts that read only
 * the table's key columns (series key and time) and compare them with constants: the same for every
 * row of a key (no functions, subqueries or window functions; no IS NULL). Every copy of a key then
 * passes or fails together, so filtering first keeps the same winner, and a query about a few
 * series ranks only their rows instead of every row of every overlapping file.
 */
final class KeyFilter {
  private KeyFilter() {}

  /**
   * The pushable conjuncts of {@code where}, as one expression (printed by {@link #text}); empty
   * when none is.
   *
   * @param keyColumns lower-case key column names an unqualified reference means
   * @param qualifiers lower-case names (table or alias) a qualified reference to the table uses
   */
  static Optional<Expression> of(Expression where, Set<String> keyColumns, Set<String> qualifiers) {
    if (where == null) {
      return Optional.empty();
    }
    List<Expression> pushable = new ArrayList<>();
    for (Expression conjunct : SyntaxTrees.conjuncts(where)) {
      if (readsOnlyKeys(conjunct, keyColumns, qualifiers)) {
        pushable.add(conjunct);
      }
    }
    if (pushable.isEmpty()) {
      return Optional.empty();
    }
    // The statement's own nodes, not copies: they are only read and printed (see text). A
    // conjunct that is an OR is parenthesized, so that it keeps its meaning next to the others.
    Expression combined = null;
    for (Expression conjunct : pushable) {
      Expression term =
          conjunct instanceof net.sf.jsqlparser.expression.operators.conditional.OrExpression
              ? SyntaxTrees.parenthesized(conjunct)
              : conjunct;
      combined = combined == null ? term : new AndExpression(combined, term);
    }
    return Optional.of(combined);
  }

  /** True when {@code filter} reads one of {@code columns} (lower-case names). */
  static boolean reads(Expression filter, Set<String> columns) {
    AtomicBoolean reads = new AtomicBoolean(false);
    filter.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Column column, S context) {
            if (columns.contains(
                SyntaxNames.unquote(column.getColumnName()).toLowerCase(Locale.ROOT))) {
              reads.set(true);
            }
            return null;
          }
        },
        null);
    return reads.get();
  }

  private static boolean readsOnlyKeys(
      Expression conjunct, Set<String> keyColumns, Set<String> qualifiers) {
    AtomicBoolean readsColumn = new AtomicBoolean(false);
    boolean keysOnly =
        ConstantEvaluator.readsOnly(
            conjunct,
            column -> {
              readsColumn.set(true);
              return isKey(column, keyColumns, qualifiers);
            },
            // Comparisons with constants only: a call (time_bucket, now()) stays outside, where
            // the statement's own rewrites (integer bucket arithmetic) apply to it.
            function -> false);
    // "key IS NULL" holds for no stored key (they are required), but it stays on the outside.
    return keysOnly && readsColumn.get() && !hasIsNull(conjunct);
  }

  private static boolean isKey(Column column, Set<String> keyColumns, Set<String> qualifiers) {
    String name = SyntaxNames.unquote(column.getColumnName()).toLowerCase(Locale.ROOT);
    String qualifier =
        column.getTable() == null || column.getTable().getName() == null
            ? null
            : SyntaxNames.unquote(column.getTable().getName()).toLowerCase(Locale.ROOT);
    return keyColumns.contains(name) && (qualifier == null || qualifiers.contains(qualifier));
  }

  private static boolean hasIsNull(Expression conjunct) {
    AtomicBoolean found = new AtomicBoolean(false);
    conjunct.accept(
        new ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(IsNullExpression isNull, S context) {
            found.set(true);
            return null;
          }
        },
        null);
    return found.get();
  }

  /**
   * {@code filter} as SQL whose columns name no table, as it runs inside the relation that reads a
   * table's files; printed from the tree, never parsed again. Columns inside a subquery keep their
   * qualifiers: they name the subquery's own tables.
   */
  static String text(Expression filter) {
    StringBuilder buffer = new StringBuilder();
    ExpressionDeParser inner = new ExpressionDeParser();
    SelectDeParser selects = new SelectDeParser(inner, buffer);
    inner.setSelectVisitor(selects);
    inner.setBuilder(buffer);
    ExpressionDeParser outer =
        new ExpressionDeParser(selects, buffer) {
          @Override
          public <S> StringBuilder visit(Column column, S context) {
            getBuilder().append(column.getColumnName());
            return getBuilder();
          }
        };
    filter.accept(outer, null);
    return buffer.toString();
  }
}

package dev.timelake.route;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.DateValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TimeValue;
import net.sf.jsqlparser.expression.TimestampValue;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.schema.Column;

/**
 * Walks and edits the expression kinds a routed SELECT may hold: operators, calls, casts, CASE,
 * lists and literals. A node of any other kind is opaque: it has no known children and cannot be
 * edited inside, so routing only accepts it when it reads no column.
 */
final class ExpressionTree {
  private ExpressionTree() {}

  /** The node's direct sub-expressions; empty when its kind is opaque. */
  static Optional<List<Expression>> children(Expression node) {
    List<Expression> children = new ArrayList<>();
    if (isLeaf(node)) {
      return Optional.of(children);
    } else if (node instanceof BinaryExpression binary) {
      children.add(binary.getLeftExpression());
      children.add(binary.getRightExpression());
    } else if (node instanceof Function function) {
      if (function.getNamedParameters() != null
          || function.getOrderByElements() != null
          || function.getKeep() != null
          || function.getAttribute() != null) {
        return Optional.empty();
      }
      if (function.getParameters() != null) {
        children.addAll(function.getParameters());
      }
    } else if (node instanceof ExpressionList<?> list) {
      children.addAll(list);
    } else if (node instanceof CastExpression cast) {
      children.add(cast.getLeftExpression());
    } else if (node instanceof CaseExpression caseExpression) {
      addIfPresent(children, caseExpression.getSwitchExpression());
      children.addAll(caseExpression.getWhenClauses());
      addIfPresent(children, caseExpression.getElseExpression());
    } else if (node instanceof WhenClause when) {
      children.add(when.getWhenExpression());
      children.add(when.getThenExpression());
    } else if (node instanceof SignedExpression signed) {
      children.add(signed.getExpression());
    } else if (node instanceof NotExpression not) {
      children.add(not.getExpression());
    } else if (node instanceof IsNullExpression isNull) {
      children.add(isNull.getLeftExpression());
    } else if (node instanceof IsBooleanExpression isBoolean) {
      children.add(isBoolean.getLeftExpression());
    } else if (node instanceof Between between) {
      children.add(between.getLeftExpression());
      children.add(between.getBetweenExpressionStart());
      children.add(between.getBetweenExpressionEnd());
    } else if (node instanceof InExpression in
        && in.getRightExpression() instanceof ExpressionList) {
      children.add(in.getLeftExpression());
      children.add(in.getRightExpression());
    } else {
      return Optional.empty();
    }
    return Optional.of(children);
  }

  /**
   * Replaces, in place, every node of the tree under {@code root} that {@code replacements} maps
   * (by identity); returns the new root. Every node on the way to a replaced one must be of a known
   * kind, which callers check with {@link #children} first.
   */
  static Expression replace(Expression root, IdentityHashMap<Expression, Expression> replacements) {
    Expression replacement = replacements.get(root);
    if (replacement != null) {
      return replacement;
    }
    if (root instanceof BinaryExpression binary) {
      binary.setLeftExpression(replace(binary.getLeftExpression(), replacements));
      binary.setRightExpression(replace(binary.getRightExpression(), replacements));
    } else if (root instanceof Function function && function.getParameters() != null) {
      replaceAll(function.getParameters(), replacements);
    } else if (root instanceof ExpressionList<?> list) {
      replaceAll(list, replacements);
    } else if (root instanceof CastExpression cast) {
      cast.setLeftExpression(replace(cast.getLeftExpression(), replacements));
    } else if (root instanceof CaseExpression caseExpression) {
      if (caseExpression.getSwitchExpression() != null) {
        caseExpression.setSwitchExpression(
            replace(caseExpression.getSwitchExpression(), replacements));
      }
      caseExpression.getWhenClauses().forEach(when -> replace(when, replacements));
      if (caseExpression.getElseExpression() != null) {
        caseExpression.setElseExpression(replace(caseExpression.getElseExpression(), replacements));
      }
    } else if (root instanceof WhenClause when) {
      when.setWhenExpression(replace(when.getWhenExpression(), replacements));
      when.setThenExpression(replace(when.getThenExpression(), replacements));
    } else if (root instanceof SignedExpression signed) {
      signed.setExpression(replace(signed.getExpression(), replacements));
    } else if (root instanceof NotExpression not) {
      not.setExpression(replace(not.getExpression(), replacements));
    } else if (root instanceof IsNullExpression isNull) {
      isNull.setLeftExpression(replace(isNull.getLeftExpression(), replacements));
    } else if (root instanceof IsBooleanExpression isBoolean) {
      isBoolean.setLeftExpression(replace(isBoolean.getLeftExpression(), replacements));
    } else if (root instanceof Between between) {
      between.setLeftExpression(replace(between.getLeftExpression(), replacements));
      between.setBetweenExpressionStart(replace(between.getBetweenExpressionStart(), replacements));
      between.setBetweenExpressionEnd(replace(between.getBetweenExpressionEnd(), replacements));
    } else if (root instanceof InExpression in) {
      in.setLeftExpression(replace(in.getLeftExpression(), replacements));
      in.setRightExpression(replace(in.getRightExpression(), replacements));
    }
    return root;
  }

  @SuppressWarnings("unchecked")
  private static void replaceAll(
      ExpressionList<?> list, IdentityHashMap<Expression, Expression> replacements) {
    ExpressionList<Expression> items = (ExpressionList<Expression>) list;
    for (int i = 0; i < items.size(); i++) {
      items.set(i, replace(items.get(i), replacements));
    }
  }

  private static void addIfPresent(List<Expression> children, Expression child) {
    if (child != null) {
      children.add(child);
    }
  }

  private static boolean isLeaf(Expression node) {
    return node instanceof Column
        || node instanceof DateUnitExpression
        || node instanceof LongValue
        || node instanceof DoubleValue
        || node instanceof StringValue
        || node instanceof NullValue
        || node instanceof BooleanValue
        || node instanceof DateValue
        || node instanceof TimeValue
        || node instanceof TimestampValue
        || node instanceof DateTimeLiteralExpression
        || node instanceof TimeKeyExpression
        || node instanceof HexValue;
  }
}

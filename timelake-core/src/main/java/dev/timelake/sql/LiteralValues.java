package dev.timelake.sql;

import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.statement.select.Values;

/**
 * Whether a VALUES list holds only literals (strings, numbers, NULL, typed literals such as {@code
 * TIMESTAMPTZ '…'} and intervals, their casts, signs and arithmetic): values that mean the same on
 * every connection of the engine, given its time zone, since they name no table, column, function
 * or setting.
 */
final class LiteralValues {
  private LiteralValues() {}

  static boolean holdsOnlyLiterals(Values values) {
    return values.getExpressions() != null && isLiteral(values.getExpressions());
  }

  private static boolean isLiteral(Expression expression) {
    if (expression instanceof ExpressionList<?> list) {
      return list.stream().allMatch(LiteralValues::isLiteral);
    }
    if (expression instanceof StringValue
        || expression instanceof LongValue
        || expression instanceof DoubleValue
        || expression instanceof NullValue
        || expression instanceof DateTimeLiteralExpression) {
      return true;
    }
    if (expression instanceof IntervalExpression interval) {
      return interval.getExpression() == null || isLiteral(interval.getExpression());
    }
    if (expression instanceof SignedExpression signed) {
      return isLiteral(signed.getExpression());
    }
    if (expression instanceof Parenthesis parenthesis) {
      return isLiteral(parenthesis.getExpression());
    }
    if (expression instanceof CastExpression cast) {
      return isLiteral(cast.getLeftExpression());
    }
    if (expression instanceof Addition
        || expression instanceof Subtraction
        || expression instanceof Multiplication
        || expression instanceof Division
        || expression instanceof Concat) {
      var binary = (net.sf.jsqlparser.expression.BinaryExpression) expression;
      return isLiteral(binary.getLeftExpression()) && isLiteral(binary.getRightExpression());
    }
    return false;
  }
}

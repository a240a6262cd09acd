package dev.timelake.fill;

import dev.timelake.ValidationException;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * QuestDB's {@code SAMPLE BY n unit [FROM a TO b] [FILL(…)] [ALIGN TO CALENDAR [TIME ZONE 'z']]}
 * for users coming from there. The clause is first spelled, in the statement's text, as a GROUP BY
 * of one marker call holding its parts ({@link #spelled}), so that the statement parses; the marker
 * is then turned on the syntax tree into the GROUP BY and bucket it means ({@link #rewrite}): the
 * table's time column in the SELECT list becomes the bucket, the other items without aggregates the
 * series, and with FILL the bucket is {@code time_bucket_gapfill} and the aggregates are filled:
 * {@code PREV} as {@code locf}, {@code LINEAR} as {@code interpolate}, a constant for the empty
 * buckets, {@code NULL} left empty. FROM and TO bound the grid and the rows read, as QuestDB's do;
 * without them the grid runs from the first bucket with rows to the last.
 */
public final class SampleBy {
  static final String MARKER = "timelake_sample_by";
  static final String CONSTANT_FILL = "timelake_fill_constant";
  private static final Map<String, String> UNITS =
      Map.of(
          "U", "microseconds",
          "T", "milliseconds",
          "s", "seconds",
          "m", "minutes",
          "h", "hours",
          "d", "days",
          "w", "weeks",
          "M", "months",
          "y", "years");

  private SampleBy() {}

  /**
   * {@code sql}, lexed as {@code tokens}, with its SAMPLE BY clause spelled as {@code GROUP BY
   * timelake_sample_by(width, from, to, zone, fill…)}; empty when it has none.
   *
   * @throws ValidationException for a clause that cannot be read or asks what is not supported
   */
  public static Optional<String> spelled(String sql, List<Token> tokens) {
    for (int i = 0; i + 2 < tokens.size(); i++) {
      if (!tokens.get(i).is("SAMPLE") || !tokens.get(i + 1).is("BY")) {
        continue;
      }
      Token width = tokens.get(i + 2);
      List<String> parts = new ArrayList<>();
      parts.add(interval(width));
      int next = i + 3;
      String from = "NULL";
      String to = "NULL";
      if (next < tokens.size() && tokens.get(next).is("FROM")) {
        int toAt = find(tokens, next + 1, "TO");
        int end = clauseEnd(tokens, toAt + 1);
        from = text(sql, tokens, next + 1, toAt);
        to = text(sql, tokens, toAt + 1, end);
        next = end;
      }
      List<String> fills = new ArrayList<>();
      if (next < tokens.size() && tokens.get(next).is("FILL")) {
        next = fills(sql, tokens, next + 1, fills);
      }
      String zone = "NULL";
      if (next < tokens.size() && tokens.get(next).is("ALIGN")) {
        if (next + 2 < tokens.size()
            && tokens.get(next + 1).is("TO")
            && tokens.get(next + 2).is("FIRST")) {
          throw new ValidationException(
              "SAMPLE BY … ALIGN TO FIRST OBSERVATION is not supported: buckets are aligned to the"
                  + " calendar (ALIGN TO CALENDAR, QuestDB's default)");
        }
        if (next + 2 >= tokens.size()
            || !tokens.get(next + 1).is("TO")
            || !tokens.get(next + 2).is("CALENDAR")) {
          throw new ValidationException("SAMPLE BY … ALIGN expects TO CALENDAR");
        }
        next += 3;
        if (next + 2 < tokens.size()
            && tokens.get(next).is("TIME")
            && tokens.get(next + 1).is("ZONE")
            && tokens.get(next + 2).kind() == Kind.STRING) {
          zone = tokens.get(next + 2).text();
          next += 3;
        }
        if (next + 2 < tokens.size()
            && tokens.get(next).is("WITH")
            && tokens.get(next + 1).is("OFFSET")) {
          String offset = tokens.get(next + 2).text();
          if (!offset.equals("'00:00'")) {
            throw new ValidationException(
                "SAMPLE BY … WITH OFFSET " + offset + " is not supported; only '00:00'");
          }
          next += 3;
        }
      }
      if (next < tokens.size()
          && !tokens.get(next).is("ORDER")
          && !tokens.get(next).is("LIMIT")
          && !tokens.get(next).text().equals(")")) {
        throw new ValidationException(
            "SAMPLE BY "
                + width.text()
                + " is followed by "
                + tokens.get(next).text()
                + "; expected FROM … TO …, FILL(…), ALIGN TO CALENDAR, ORDER BY or LIMIT");
      }
      parts.add(from);
      parts.add(to);
      parts.add(zone);
      parts.addAll(fills);
      int end = next < tokens.size() ? tokens.get(next).start() : sql.length();
      return Optional.of(
          sql.substring(0, tokens.get(i).start())
              + "GROUP BY "
              + MARKER
              + "("
              + String.join(", ", parts)
              + ") "
              + sql.substring(end));
    }
    return Optional.empty();
  }

  /** {@code 15m} as {@code INTERVAL '15 minutes'}; the unit's case matters (m minute, M month). */
  private static String interval(Token width) {
    String text = width.text();
    int digits = 0;
    while (digits < text.length() && Character.isDigit(text.charAt(digits))) {
      digits++;
    }
    String unit = UNITS.get(text.substring(digits));
    if (width.kind() != Kind.NUMBER || digits == 0 || unit == null) {
      throw new ValidationException(
          "SAMPLE BY takes a width such as 15m, 1h, 1d or 1M (units U, T, s, m, h, d, w, M, y);"
              + " got "
              + text);
    }
    return "INTERVAL '" + Long.parseLong(text.substring(0, digits)) + " " + unit + "'";
  }

  /** Reads {@code (mode, …)} from {@code open}; adds each as its marker argument. */
  private static int fills(String sql, List<Token> tokens, int open, List<String> fills) {
    if (open >= tokens.size() || !tokens.get(open).text().equals("(")) {
      throw new ValidationException("SAMPLE BY … FILL expects (NULL | PREV | LINEAR | value, …)");
    }
    int start = open + 1;
    int depth = 0;
    for (int k = start; k < tokens.size(); k++) {
      String t = tokens.get(k).text();
      if (t.equals("(")) {
        depth++;
      } else if (depth > 0 && t.equals(")")) {
        depth--;
      } else if (depth == 0 && (t.equals(",") || t.equals(")"))) {
        fills.add(fill(sql, tokens, start, k));
        start = k + 1;
        if (t.equals(")")) {
          return k + 1;
        }
      }
    }
    throw new ValidationException("SAMPLE BY … FILL( is not closed");
  }

  private static String fill(String sql, List<Token> tokens, int from, int to) {
    if (to == from + 1 && tokens.get(from).kind() == Kind.WORD) {
      switch (tokens.get(from).value()) {
        case "PREV":
          return "'prev'";
        case "LINEAR":
          return "'linear'";
        case "NULL", "NONE":
          return "'null'";
        default:
          break;
      }
    }
    if (to == from) {
      throw new ValidationException("SAMPLE BY … FILL has an empty mode");
    }
    return CONSTANT_FILL + "(" + text(sql, tokens, from, to) + ")";
  }

  private static int find(List<Token> tokens, int from, String keyword) {
    for (int k = from; k < tokens.size(); k++) {
      if (tokens.get(k).is(keyword)) {
        return k;
      }
    }
    throw new ValidationException("SAMPLE BY … FROM expects TO");
  }

  /** The end of a bound: the next FILL, ALIGN, ORDER, LIMIT or closing parenthesis. */
  private static int clauseEnd(List<Token> tokens, int from) {
    int depth = 0;
    for (int k = from; k < tokens.size(); k++) {
      Token token = tokens.get(k);
      if (token.text().equals("(")) {
        depth++;
      } else if (token.text().equals(")")) {
        if (depth == 0) {
          return k;
        }
        depth--;
      } else if (depth == 0
          && (token.is("FILL") || token.is("ALIGN") || token.is("ORDER") || token.is("LIMIT"))) {
        return k;
      }
    }
    return tokens.size();
  }

  private static String text(String sql, List<Token> tokens, int from, int to) {
    if (to <= from) {
      throw new ValidationException("SAMPLE BY … FROM … TO … needs both bounds");
    }
    return sql.substring(tokens.get(from).start(), tokens.get(to - 1).end());
  }

  /**
   * Turns {@code select}'s SAMPLE BY marker, if it has one, into its GROUP BY and bucket (see the
   * class comment); the table's time column is {@code timeColumn}.
   */
  static void rewrite(PlainSelect select, GapFill.Context context) {
    Optional<Function> marker = marker(select);
    if (marker.isEmpty()) {
      return;
    }
    List<Expression> parts = List.copyOf(marker.get().getParameters());
    String time =
        context
            .timeColumn(select)
            .orElseThrow(
                () ->
                    new ValidationException(
                        "SAMPLE BY buckets a table's time column; this SELECT reads none"));
    Expression width = parts.get(0);
    Expression from = parts.get(1);
    Expression to = parts.get(2);
    Expression zone = parts.get(3);
    List<Expression> fills = parts.subList(4, parts.size());
    boolean filled = !fills.isEmpty();
    List<SelectItem<?>> items = select.getSelectItems();
    List<Expression> groups = new ArrayList<>();
    int bucketPosition = -1;
    int aggregate = 0;
    for (int i = 0; i < items.size(); i++) {
      SelectItem<?> item = items.get(i);
      Expression expression = item.getExpression();
      if (expression instanceof Column column
          && SyntaxNames.unquote(column.getColumnName()).equalsIgnoreCase(time)) {
        if (item.getAlias() == null) {
          item.setAlias(new Alias(SyntaxNames.unquote(column.getColumnName()), false));
        }
        setExpression(item, bucket(filled, width, column, zone, from, to));
        bound(select, column, from, to);
        bucketPosition = i + 1;
        groups.add(new LongValue(i + 1));
      } else if (hasAggregate(expression, context)) {
        if (filled) {
          Expression fill = fills.size() == 1 ? fills.get(0) : fillAt(fills, aggregate);
          setExpression(item, filledItem(expression, fill));
        }
        aggregate++;
      } else {
        groups.add(new LongValue(i + 1));
      }
    }
    if (bucketPosition < 0) {
      throw new ValidationException(
          "SAMPLE BY needs the time column " + time + " in the SELECT list: it becomes the bucket");
    }
    if (fills.size() > 1 && fills.size() != aggregate) {
      throw new ValidationException(
          "SAMPLE BY … FILL has "
              + fills.size()
              + " modes for "
              + aggregate
              + " aggregates: give one for all or one each");
    }
    GroupByElement groupBy = new GroupByElement();
    groupBy.setGroupByExpressions(new ExpressionList<>(groups));
    select.setGroupByElement(groupBy);
  }

  /**
   * QuestDB's FROM … TO … bounds what flows out as well as the grid: rows outside it are left out
   * (QuestDB adds the same WHERE), which also lets routing and pruning see the range.
   */
  private static void bound(PlainSelect select, Column time, Expression from, Expression to) {
    List<Expression> terms = new ArrayList<>();
    if (select.getWhere() != null) {
      terms.add(select.getWhere());
    }
    if (!(from instanceof NullValue)) {
      GapFillBucket.requireConstant(from, "SAMPLE BY's FROM and TO");
      terms.add(SyntaxTrees.atLeast(new Column(time.getColumnName()), from));
    }
    if (!(to instanceof NullValue)) {
      GapFillBucket.requireConstant(to, "SAMPLE BY's FROM and TO");
      terms.add(SyntaxTrees.below(new Column(time.getColumnName()), to));
    }
    if (!terms.isEmpty()) {
      select.setWhere(SyntaxTrees.and(terms));
    }
  }

  private static Optional<Function> marker(PlainSelect select) {
    GroupByElement groupBy = select.getGroupBy();
    if (groupBy == null || groupBy.getGroupByExpressionList() == null) {
      return Optional.empty();
    }
    for (Object grouped : groupBy.getGroupByExpressionList()) {
      if (grouped instanceof Function call && MARKER.equals(GapFill.name(call))) {
        if (groupBy.getGroupByExpressionList().size() != 1) {
          throw new ValidationException("a SAMPLE BY query has no GROUP BY of its own");
        }
        return Optional.of(call);
      }
    }
    return Optional.empty();
  }

  private static Function bucket(
      boolean filled,
      Expression width,
      Column time,
      Expression zone,
      Expression from,
      Expression to) {
    if (!filled) {
      return zone instanceof NullValue
          ? SyntaxTrees.call("time_bucket", width, time)
          : SyntaxTrees.call("time_bucket", width, time, zone);
    }
    return SyntaxTrees.call(GapFill.ROWS_BUCKET_FUNCTION, width, time, zone, from, to);
  }

  private static Expression fillAt(List<Expression> fills, int index) {
    return index < fills.size() ? fills.get(index) : new StringValue("null");
  }

  private static Expression filledItem(Expression aggregate, Expression fill) {
    if (fill instanceof StringValue mode) {
      return switch (mode.getValue()) {
        case "prev" -> SyntaxTrees.call("locf", aggregate);
        case "linear" -> SyntaxTrees.call("interpolate", aggregate);
        default -> aggregate;
      };
    }
    Function constant = (Function) fill;
    Expression value = constant.getParameters().get(0);
    if (value instanceof StringValue text && !keepsTheColumnsType(aggregate)) {
      throw new ValidationException(
          "SAMPLE BY … FILL("
              + text
              + "): "
              + aggregate
              + " is a number, and "
              + text
              + " is text; fill it with a number, NULL, PREV or LINEAR");
    }
    return SyntaxTrees.call(CONSTANT_FILL, aggregate, value);
  }

  /** Aggregates whose value has the type of the column they read: any constant may fill them. */
  private static final java.util.Set<String> TYPE_KEEPING =
      java.util.Set.of(
          "min",
          "max",
          "first",
          "last",
          "first_value",
          "last_value",
          "any_value",
          "arg_min",
          "arg_max",
          "mode",
          "string_agg",
          "listagg",
          "group_concat");

  private static boolean keepsTheColumnsType(Expression aggregate) {
    return aggregate instanceof Function call
        && TYPE_KEEPING.contains(GapFill.name(call).toLowerCase(java.util.Locale.ROOT));
  }

  private static boolean hasAggregate(Expression expression, GapFill.Context context) {
    boolean[] found = {false};
    expression.accept(
        new net.sf.jsqlparser.expression.ExpressionVisitorAdapter<Void>() {
          @Override
          public <S> Void visit(Function function, S ctx) {
            if (context.isAggregate(GapFill.name(function))) {
              found[0] = true;
            }
            return super.visit(function, ctx);
          }
        },
        null);
    return found[0];
  }

  @SuppressWarnings("unchecked")
  private static void setExpression(SelectItem<?> item, Expression expression) {
    ((SelectItem<Expression>) item).setExpression(expression);
  }
}

package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Token;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.table.SessionSettings;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.TableFunction;

/**
 * The newest row of every series (or of some), read from the table's last-value index instead of
 * its data: {@code … QUALIFY row_number() OVER (PARTITION BY <series key> ORDER BY <time> DESC) =
 * 1}, {@code SELECT DISTINCT ON (<series key>) … ORDER BY <series key>, <time> DESC}, and QuestDB's
 * {@code LATEST ON <time> PARTITION BY <series key>}. The index holds exactly those rows, so the
 * query runs on it unchanged, as long as its WHERE keeps or drops whole series (terms on series-key
 * columns only) or is a lower bound on time (a series' newest row is above it or the series has no
 * row there): filters on other columns change which row is newest, and such queries keep their
 * normal plan.
 */
final class LatestRows {
  private final TableName table;
  private final Table from;
  private PlainSelect target;
  private final List<String> nullableArguments = new java.util.ArrayList<>();

  private LatestRows(TableName table, Table from) {
    this.table = table;
    this.from = from;
  }

  /**
   * {@code LATEST ON t PARTITION BY k} as the QUALIFY it means, so that the rest of Timelake reads
   * standard DuckDB SQL; other text unchanged.
   */
  static String latestOn(String sql) {
    return latestOn(sql, SqlLexer.tokens(sql).tokens()).orElse(sql);
  }

  /**
   * QuestDB's {@code LATEST ON ts PARTITION BY a, b} (before ORDER BY, LIMIT or the end) in {@code
   * sql}, lexed as {@code tokens}, spelled as the QUALIFY it means; empty when there is none.
   */
  static Optional<String> latestOn(String sql, List<Token> tokens) {
    for (int i = 0; i + 5 < tokens.size(); i++) {
      if (!tokens.get(i).is("LATEST")
          || !tokens.get(i + 1).is("ON")
          || !TokenNames.isIdentifier(tokens.get(i + 2))
          || !tokens.get(i + 3).is("PARTITION")
          || !tokens.get(i + 4).is("BY")) {
        continue;
      }
      int last = i + 5;
      while (last + 2 < tokens.size()
          && tokens.get(last + 1).text().equals(",")
          && TokenNames.isIdentifier(tokens.get(last + 2))) {
        last += 2;
      }
      boolean ends =
          last + 1 == tokens.size()
              || tokens.get(last + 1).is("LIMIT")
              || (tokens.get(last + 1).is("ORDER")
                  && last + 2 < tokens.size()
                  && tokens.get(last + 2).is("BY"));
      if (!TokenNames.isIdentifier(tokens.get(i + 5)) || !ends) {
        continue;
      }
      return Optional.of(
          sql.substring(0, tokens.get(i).start())
              + "QUALIFY row_number() OVER (PARTITION BY "
              + sql.substring(tokens.get(i + 5).start(), tokens.get(last).end())
              + " ORDER BY "
              + tokens.get(i + 2).text()
              + " DESC) = 1"
              + sql.substring(tokens.get(last).end()));
    }
    return Optional.empty();
  }

  /** The shape of {@code statement} when the last-value index answers it exactly. */
  static Optional<LatestRows> of(
      Statement statement,
      Function<TableName, Optional<LoadedTable>> tables,
      SessionSettings settings,
      Set<String> engineAggregates) {
    Optional<LatestRows> latest = ofSelect(statement, tables, settings, engineAggregates);
    if (latest.isEmpty()
        && statement instanceof PlainSelect outer
        && (outer.getJoins() == null || outer.getJoins().isEmpty())
        && outer.getFromItem() instanceof ParenthesedSelect inner
        && inner.getSelect() != null) {
      // SELECT … FROM (the newest rows per series) [AS x]: the inner query reads the index.
      return of(inner.getSelect(), tables, settings, engineAggregates);
    }
    return latest;
  }

  private static Optional<LatestRows> ofSelect(
      Statement statement,
      Function<TableName, Optional<LoadedTable>> tables,
      SessionSettings settings,
      Set<String> engineAggregates) {
    Optional<SelectShapes.OneTable> one = SelectShapes.oneTable(statement, tables);
    if (one.isEmpty() || one.get().select().getHaving() != null) {
      return Optional.empty();
    }
    PlainSelect select = one.get().select();
    Table from = one.get().from();
    LoadedTable loaded = one.get().table();
    TableContract contract = loaded.contract();
    if (!contract.deduplicates()
        || !settings.isEnabled(Settings.READ_DEDUP, contract)
        || !settings.isEnabled(Settings.LATEST_INDEX, contract)
        || contract.timeColumn().isEmpty()) {
      return Optional.empty();
    }
    LatestRows latest = new LatestRows(loaded.name(), from);
    if (select.getGroupBy() != null) {
      if (select.getDistinct() != null
          || select.getQualify() != null
          || !latest.aggregatesNewest(select, contract)
          || !latest.filtersWholeSeries(select.getWhere(), contract)) {
        return Optional.empty();
      }
      latest.target = select;
      return Optional.of(latest);
    }
    boolean newestPerSeries =
        select.getDistinct() == null
            ? latest.qualifiesNewest(select.getQualify(), contract)
            : select.getQualify() == null && latest.distinctOnNewest(select, contract);
    if (!newestPerSeries
        || !latest.filtersWholeSeries(select.getWhere(), contract)
        || SelectShapes.computesOverRows(select, engineAggregates)) {
      return Optional.empty();
    }
    latest.target = select;
    return Optional.of(latest);
  }

  TableName table() {
    return table;
  }

  /** True when the shape has arguments that {@code arg_max} would skip when NULL. */
  boolean hasNullableArguments() {
    return !nullableArguments.isEmpty();
  }

  /** Reads the index at {@code index} instead of the table; the rest of the query is kept. */
  void readFrom(Path index) {
    PlainSelect select = target;
    TableFunction file = SyntaxTrees.readParquet(List.of(index.toString()));
    String alias =
        from.getAlias() != null
            ? SyntaxNames.unquote(from.getAlias().getName())
            : SyntaxNames.unquote(from.getName());
    file.setAlias(new Alias(quote(alias)));
    select.setFromItem(file);
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /**
   * {@code SELECT <series key…>, max(time), arg_max(x, time)… GROUP BY <series key>}: each group's
   * values are those of its newest row, except that {@code arg_max} skips NULLs, so a series whose
   * newest row has a NULL argument needs older rows ({@link #nullCheck}).
   */
  private boolean aggregatesNewest(PlainSelect select, TableContract contract) {
    net.sf.jsqlparser.statement.select.GroupByElement groupBy = select.getGroupBy();
    if (groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty()
        || groupBy.getGroupByExpressionList() == null) {
      return false;
    }
    Set<String> groups = new HashSet<>();
    for (Object expression : groupBy.getGroupByExpressionList()) {
      Optional<String> name = columnName((Expression) expression);
      if (name.isEmpty() || !groups.add(name.get())) {
        return false;
      }
    }
    Set<String> keys = lower(contract.seriesKey());
    String time = contract.timeColumn().orElseThrow().toLowerCase(Locale.ROOT);
    if (!groups.equals(keys) || keys.isEmpty()) {
      return false;
    }
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression expression = item.getExpression();
      if (columnName(expression).filter(keys::contains).isPresent()) {
        continue;
      }
      if (!(expression instanceof net.sf.jsqlparser.expression.Function call)
          || call.isDistinct()
          || call.isAllColumns()
          || call.getParameters() == null
          || call.getOrderByElements() != null) {
        return false;
      }
      String name = call.getName().toLowerCase(Locale.ROOT);
      List<?> arguments = call.getParameters();
      if (name.equals("max") && arguments.size() == 1) {
        if (columnName((Expression) arguments.get(0)).filter(time::equals).isEmpty()) {
          return false;
        }
      } else if (Set.of("arg_max", "max_by", "arg_max_null").contains(name)
          && arguments.size() == 2) {
        Optional<String> argument = columnName((Expression) arguments.get(0));
        if (argument.isEmpty()
            || columnName((Expression) arguments.get(1)).filter(time::equals).isEmpty()) {
          return false;
        }
        if (!name.equals("arg_max_null")) {
          nullableArguments.add(argument.get());
        }
      } else {
        return false;
      }
    }
    return true;
  }

  /**
   * For {@code arg_max} forms: a query over the index that counts the series whose newest row has a
   * NULL argument; the index answers only when it counts none. Empty when nothing needs checking.
   */
  Optional<String> nullCheck(Path index, java.util.Set<String> columnsWithNulls) {
    if (nullableArguments.stream().noneMatch(columnsWithNulls::contains)) {
      return Optional.empty();
    }
    String alias =
        quote(
            from.getAlias() != null
                ? SyntaxNames.unquote(from.getAlias().getName())
                : SyntaxNames.unquote(from.getName()));
    List<String> nulls = new java.util.ArrayList<>();
    for (String column : nullableArguments) {
      nulls.add(alias + "." + quote(column) + " IS NULL");
    }
    Expression where = target.getWhere();
    return Optional.of(
        "SELECT count(*) FROM "
            + SyntaxTrees.readParquet(List.of(index.toString()))
            + " AS "
            + alias
            + " WHERE ("
            + String.join(" OR ", nulls)
            + ")"
            + (where == null ? "" : " AND (" + where + ")"));
  }

  /** {@code row_number() OVER (PARTITION BY <series key> ORDER BY <time> DESC) = 1}. */
  private boolean qualifiesNewest(Expression qualify, TableContract contract) {
    if (!(qualify instanceof EqualsTo equals)) {
      return false;
    }
    Expression left = equals.getLeftExpression();
    Expression right = equals.getRightExpression();
    AnalyticExpression window =
        left instanceof AnalyticExpression a && isOne(right)
            ? a
            : right instanceof AnalyticExpression a && isOne(left) ? a : null;
    if (window == null
        || !"row_number".equalsIgnoreCase(window.getName())
        || window.getExpression() != null
        || window.getWindowElement() != null
        || window.getFilterExpression() != null
        || window.getOrderByElements() == null
        || window.getOrderByElements().size() != 1) {
      return false;
    }
    Set<String> partition = new HashSet<>();
    if (window.getPartitionExpressionList() != null) {
      for (Object expression : window.getPartitionExpressionList()) {
        Optional<String> name = columnName((Expression) expression);
        if (name.isEmpty() || !partition.add(name.get())) {
          return false;
        }
      }
    }
    return partition.equals(lower(contract.seriesKey()))
        && newestFirst(window.getOrderByElements().get(0), contract);
  }

  /** {@code DISTINCT ON (<series key>) … ORDER BY <series key…>, <time> DESC}. */
  private boolean distinctOnNewest(PlainSelect select, TableContract contract) {
    List<SelectItem<?>> on = select.getDistinct().getOnSelectItems();
    List<OrderByElement> order = select.getOrderByElements();
    if (on == null || on.isEmpty() || order == null) {
      return false;
    }
    Set<String> keys = new HashSet<>();
    for (SelectItem<?> item : on) {
      Optional<String> name = columnName(item.getExpression());
      if (name.isEmpty() || !keys.add(name.get())) {
        return false;
      }
    }
    if (!keys.equals(lower(contract.seriesKey())) || order.size() <= keys.size()) {
      return false;
    }
    Set<String> leading = new HashSet<>();
    for (int i = 0; i < keys.size(); i++) {
      columnName(order.get(i).getExpression()).ifPresent(leading::add);
    }
    return leading.equals(keys) && newestFirst(order.get(keys.size()), contract);
  }

  private boolean newestFirst(OrderByElement order, TableContract contract) {
    return !order.isAsc()
        && order.getNullOrdering() == null
        && columnName(order.getExpression())
            .filter(contract.timeColumn().orElseThrow().toLowerCase(Locale.ROOT)::equals)
            .isPresent();
  }

  /**
   * True when every term of the WHERE reads only series-key columns, or bounds time from below:
   * each keeps or drops a series' newest row exactly as it keeps or drops the series.
   */
  private boolean filtersWholeSeries(Expression where, TableContract contract) {
    if (where == null) {
      return true;
    }
    if (where instanceof AndExpression and) {
      return filtersWholeSeries(and.getLeftExpression(), contract)
          && filtersWholeSeries(and.getRightExpression(), contract);
    }
    if (where instanceof net.sf.jsqlparser.expression.Parenthesis parenthesis) {
      return filtersWholeSeries(parenthesis.getExpression(), contract);
    }
    String time = contract.timeColumn().orElseThrow().toLowerCase(Locale.ROOT);
    if (lowerBoundOnTime(where, time)) {
      return true;
    }
    Optional<List<Column>> references = dev.timelake.engine.ColumnReferences.of(where);
    if (references.isEmpty()) {
      return false;
    }
    Set<String> columns = new HashSet<>();
    for (Column column : references.get()) {
      Optional<String> name = columnName(column);
      if (name.isEmpty()) {
        return false;
      }
      columns.add(name.get());
    }
    return !columns.isEmpty() && lower(contract.seriesKey()).containsAll(columns);
  }

  /** {@code time >= c}, {@code time > c}, {@code c <= time} or {@code c < time}, c constant. */
  private boolean lowerBoundOnTime(Expression term, String time) {
    Expression column;
    Expression bound;
    if (term instanceof GreaterThanEquals || term instanceof GreaterThan) {
      column = ((net.sf.jsqlparser.expression.BinaryExpression) term).getLeftExpression();
      bound = ((net.sf.jsqlparser.expression.BinaryExpression) term).getRightExpression();
    } else if (term instanceof MinorThanEquals || term instanceof MinorThan) {
      column = ((net.sf.jsqlparser.expression.BinaryExpression) term).getRightExpression();
      bound = ((net.sf.jsqlparser.expression.BinaryExpression) term).getLeftExpression();
    } else {
      return false;
    }
    return columnName(column).filter(time::equals).isPresent()
        && dev.timelake.engine.ConstantEvaluator.isConstant(bound);
  }

  /** The lower-case name of a column of the table read, empty for anything else. */
  private Optional<String> columnName(Expression expression) {
    return SyntaxNames.column(expression)
        .filter(c -> SelectShapes.qualifiedBy(c, from))
        .map(c -> SyntaxNames.unquote(c.getColumnName()).toLowerCase(Locale.ROOT));
  }

  private static boolean isOne(Expression expression) {
    return expression instanceof LongValue value && value.getValue() == 1;
  }

  private static Set<String> lower(List<String> names) {
    Set<String> lower = new HashSet<>();
    names.forEach(name -> lower.add(name.toLowerCase(Locale.ROOT)));
    return lower;
  }
}

package dev.timelake.route;

import dev.timelake.Column;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.read.TimeBucketRewriter;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * The names DuckDB gives a SELECT's output columns when it runs unrouted, so a routed answer has
 * the same column names: an alias, a column's own name, or for any other unaliased expression the
 * name DuckDB derives from it, found by describing the same SELECT list over an empty relation with
 * the raw table's columns (no file is read).
 */
final class OutputLabels {
  private OutputLabels() {}

  static List<String> of(
      PlainSelect select,
      String alias,
      TableContract raw,
      ConstantEvaluator constants,
      EngineConnection connection) {
    List<String> labels = new ArrayList<>();
    boolean describe = false;
    for (SelectItem<?> item : select.getSelectItems()) {
      if (item.getAlias() != null) {
        labels.add(SyntaxNames.unquote(item.getAlias().getName()));
      } else {
        // A column is labelled as the table names it, whatever case the query spells it in.
        Optional<String> column =
            SyntaxNames.column(item.getExpression())
                .map(c -> SyntaxNames.unquote(c.getColumnName()))
                .flatMap(
                    name -> raw.columnNames().stream().filter(name::equalsIgnoreCase).findFirst());
        labels.add(column.orElse(null));
        describe |= column.isEmpty();
      }
    }
    if (!describe) {
      return labels;
    }
    List<List<Object>> described =
        connection.rows("DESCRIBE " + probe(select, alias, raw, constants));
    for (int i = 0; i < labels.size(); i++) {
      if (labels.get(i) == null) {
        labels.set(i, String.valueOf(described.get(i).get(0)));
      }
    }
    return labels;
  }

  /** The SELECT list and GROUP BY over an empty relation with the raw columns, printed unrouted. */
  private static String probe(
      PlainSelect select, String alias, TableContract raw, ConstantEvaluator constants) {
    List<String> columns = new ArrayList<>();
    for (Column column : raw.columns()) {
      columns.add(
          "CAST(NULL AS " + column.type().sql() + ") AS " + SqlText.identifier(column.name()));
    }
    Table empty = new Table("__tl_empty");
    empty.setAlias(new Alias(SqlText.identifier(alias), true));
    PlainSelect probe = new PlainSelect();
    probe.setSelectItems(select.getSelectItems());
    probe.setFromItem(empty);
    probe.setGroupByElement(select.getGroupBy());
    return new TimeBucketRewriter(
            constants, Set.of(raw.timeColumn().orElseThrow().toLowerCase(java.util.Locale.ROOT)))
        .print(
            probe,
            java.util.Map.of(empty, "SELECT " + String.join(", ", columns) + " WHERE false"));
  }
}

package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.engine.SqlText;
import java.util.Optional;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;

/**
 * A DELETE of a table's rows: every copy of the keys of the rows the reader sees where the
 * condition holds goes, in one commit, as SQL's {@code DELETE FROM t WHERE …} (docs/SPEC.md §13).
 * Nothing happens until {@link #commit()}.
 *
 * <pre>{@code
 * long deleted = lake.table("iot.readings").newDelete().where("device = 'pump-7'").commit();
 * }</pre>
 */
public final class Delete {
  private final LakeCatalog catalog;
  private final TableName table;
  private Optional<net.sf.jsqlparser.expression.Expression> condition = Optional.empty();

  Delete(LakeCatalog catalog, TableName table) {
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.table = requireNonNull(table, "table is null");
  }

  /**
   * Deletes only the rows where {@code condition} holds: a SQL condition on the table's columns
   * (DuckDB's syntax, subqueries over lake tables included). Without it every row goes.
   *
   * @throws ValidationException when the condition cannot be read
   */
  public Delete where(String condition) {
    requireNonNull(condition, "condition is null");
    try {
      this.condition = Optional.of(CCJSqlParserUtil.parseCondExpression(condition));
    } catch (JSQLParserException e) {
      throw TimelakeException.validation(
          "Cannot delete from %s: cannot read the condition '%s' (%s)",
          table, condition, String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
    return this;
  }

  /** Deletes and returns how many rows (as the reader saw them) went. */
  public long commit() {
    net.sf.jsqlparser.statement.delete.Delete statement =
        new net.sf.jsqlparser.statement.delete.Delete();
    statement.setTable(
        new net.sf.jsqlparser.schema.Table(
            SqlText.identifier(table.namespace()), SqlText.identifier(table.name())));
    condition.ifPresent(statement::setWhere);
    try (Session session = new Session(catalog, Optional.empty());
        QueryResult result =
            session.sql(dev.timelake.read.FunctionCalls.rewrite(statement, call -> {}))) {
      return result.rowCount().orElse(0);
    }
  }
}

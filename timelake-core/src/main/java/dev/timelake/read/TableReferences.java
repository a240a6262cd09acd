package dev.timelake.read;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * Finds every table reference in a statement's syntax tree together with the SELECT whose FROM
 * clause holds it (for its WHERE filters). Names of common table expressions are not tables.
 */
public final class TableReferences extends TablesNamesFinder<Void> {
  /** A table node and the SELECT that reads it (null outside a SELECT). */
  public record Reference(Table table, PlainSelect enclosing) {}

  private final Deque<PlainSelect> selects = new ArrayDeque<>();
  private final List<Reference> references = new ArrayList<>();
  private final Set<String> cteNames = new HashSet<>();

  private TableReferences() {
    init(false);
  }

  /** Every table reference of the statement, in visiting order. */
  public static List<Reference> of(Statement statement) {
    TableReferences finder = new TableReferences();
    statement.accept((net.sf.jsqlparser.statement.StatementVisitor<Void>) finder, null);
    List<Reference> tables = new ArrayList<>();
    // The finder visits a common table expression's body twice; keep each node once.
    Set<Table> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Reference reference : finder.references) {
      Table table = reference.table();
      boolean cte =
          table.getSchemaName() == null
              && finder.cteNames.contains(table.getName().toLowerCase(Locale.ROOT));
      if (!cte && seen.add(table)) {
        tables.add(reference);
      }
    }
    return tables;
  }

  @Override
  public <S> Void visit(WithItem<?> withItem, S context) {
    if (withItem.getAlias() != null) {
      cteNames.add(withItem.getAlias().getName().toLowerCase(Locale.ROOT));
    }
    return super.visit(withItem, context);
  }

  @Override
  public <S> Void visit(PlainSelect plainSelect, S context) {
    selects.push(plainSelect);
    try {
      return super.visit(plainSelect, context);
    } finally {
      selects.pop();
    }
  }

  @Override
  public <S> Void visit(Table table, S context) {
    references.add(new Reference(table, selects.peek()));
    return super.visit(table, context);
  }
}

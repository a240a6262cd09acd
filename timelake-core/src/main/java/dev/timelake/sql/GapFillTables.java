package dev.timelake.sql;

import dev.timelake.ColumnType;
import dev.timelake.ValidationException;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.fill.GapFill;
import dev.timelake.read.TableReferences;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * What gap filling needs to know of a statement's tables (as pinned for it) and of the engine: the
 * type and name of the time column a SELECT buckets, and which calls are aggregates.
 */
record GapFillTables(PinnedTables tables, Set<String> aggregateFunctions)
    implements GapFill.Context {

  @Override
  public boolean holdsInstants(PlainSelect select, Column time) {
    String name = SyntaxNames.unquote(time.getColumnName());
    for (TableContract contract : contracts(select)) {
      Optional<dev.timelake.Column> column =
          contract.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
      if (column.isPresent()) {
        return column.get().type().kind() == ColumnType.Kind.TIMESTAMPTZ;
      }
    }
    return true; // not a lake table's column: DuckDB's own, most often TIMESTAMPTZ
  }

  @Override
  public Optional<String> timeColumn(PlainSelect select) {
    return contracts(select).stream()
        .map(TableContract::timeColumn)
        .flatMap(Optional::stream)
        .findFirst();
  }

  @Override
  public boolean isAggregate(String function) {
    return aggregateFunctions.contains(function);
  }

  /** The contracts of the lake tables in {@code select}'s own FROM clause. */
  private List<TableContract> contracts(PlainSelect select) {
    List<TableContract> contracts = new ArrayList<>();
    for (TableReferences.Reference reference : TableReferences.of(select)) {
      if (reference.enclosing() != select || reference.table().getName() == null) {
        continue;
      }
      try {
        tables
            .find(SyntaxNames.tableName(reference.table()))
            .ifPresent(table -> contracts.add(table.contract()));
      } catch (ValidationException e) {
        // not a lake table's name
      }
    }
    return contracts;
  }
}

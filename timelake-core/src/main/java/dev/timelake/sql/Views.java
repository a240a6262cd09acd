package dev.timelake.sql;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.engine.StatementParser;
import dev.timelake.read.TableReferences;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Views over lake tables: the lake's (kept in their namespace's properties, named {@code ns.v}) and
 * the session's temporary ones (named {@code v}). A view holds its query, not rows: where a
 * statement names a view, its query takes the name's place as a common table expression, so the
 * lake tables it reads are planned like any other reference (copies removed, files pruned) and read
 * at the snapshot the statement reads.
 */
final class Views {
  /** How deep views may name views; deeper is taken for a view that names itself. */
  private static final int MAX_DEPTH = 16;

  private final LakeCatalog catalog;
  private final Map<String, String> temporary = new HashMap<>();
  private int expanded;

  Views(LakeCatalog catalog) {
    this.catalog = catalog;
  }

  /** Keeps a temporary view of this session. */
  void putTemporary(String name, String query) {
    temporary.put(name.toLowerCase(Locale.ROOT), query);
  }

  /** True when this session has a temporary view {@code name}. */
  boolean hasTemporary(String name) {
    return temporary.containsKey(name.toLowerCase(Locale.ROOT));
  }

  /** Drops a temporary view of this session; false when there was none. */
  boolean dropTemporary(String name) {
    return temporary.remove(name.toLowerCase(Locale.ROOT)) != null;
  }

  /**
   * True when {@code select} names a view, the session's or the lake's; {@code isTable} tells the
   * names of lake tables, which no view shares, so that they cost no lookup of views.
   */
  boolean namesView(Select select, java.util.function.Predicate<TableName> isTable) {
    return TableReferences.of(select).stream().anyMatch(r -> query(r.table(), isTable).isPresent());
  }

  /**
   * Replaces every view {@code select} names by its query, views inside views too; {@code check}
   * sees each view's query first (what the reader may not read, it may not read through a view).
   */
  void expand(
      Select select,
      java.util.function.Consumer<String> check,
      java.util.function.Predicate<TableName> isTable) {
    expand(select, new HashSet<>(), 0, check, isTable);
  }

  private void expand(
      Select select,
      Set<String> within,
      int depth,
      java.util.function.Consumer<String> check,
      java.util.function.Predicate<TableName> isTable) {
    List<WithItem<?>> items = new ArrayList<>();
    for (TableReferences.Reference reference : TableReferences.of(select)) {
      Table table = reference.table();
      Optional<String> query = query(table, isTable);
      if (query.isEmpty()) {
        continue;
      }
      String name = displayName(table);
      if (depth >= MAX_DEPTH || within.contains(name)) {
        throw TimelakeException.validation(
            "Cannot read view %s: it names itself through the views it reads", name);
      }
      check.accept(query.get());
      Select body = parse(name, query.get());
      Set<String> inner = new HashSet<>(within);
      inner.add(name);
      expand(body, inner, depth + 1, check, isTable);
      String cte = "__tl_view_" + (++expanded);
      ParenthesedSelect parenthesed = new ParenthesedSelect();
      parenthesed.setSelect(body);
      items.add(new WithItem<>(parenthesed, new Alias(cte, false)));
      if (table.getAlias() == null) {
        table.setAlias(new Alias(table.getName(), false));
      }
      table.setSchemaName(null);
      table.setName(cte);
    }
    if (!items.isEmpty()) {
      if (select.getWithItemsList() != null) {
        items.addAll(select.getWithItemsList());
      }
      select.setWithItemsList(items);
    }
  }

  /** The query of the view {@code table} names: a temporary one first, then the lake's. */
  private Optional<String> query(Table table, java.util.function.Predicate<TableName> isTable) {
    if (table.getName() == null || table.getNameParts().size() > 2) {
      return Optional.empty();
    }
    String schema = table.getSchemaName();
    String name = dev.timelake.engine.SyntaxNames.unquote(table.getName());
    if (schema == null || schema.equalsIgnoreCase("temp")) {
      Optional<String> session = Optional.ofNullable(temporary.get(name.toLowerCase(Locale.ROOT)));
      if (session.isPresent() || schema != null) {
        return session;
      }
      return Optional.empty();
    }
    try {
      TableName qualified = new TableName(dev.timelake.engine.SyntaxNames.unquote(schema), name);
      return isTable.test(qualified) ? Optional.empty() : catalog.view(qualified);
    } catch (dev.timelake.ValidationException e) {
      return Optional.empty();
    }
  }

  private static String displayName(Table table) {
    return table.getSchemaName() == null
        ? table.getName()
        : table.getSchemaName() + "." + table.getName();
  }

  /** A view's query, parsed. */
  static Select parse(String view, String query) {
    try {
      String text =
          ClassifiedStatement.hasIntegerDivision(query)
              ? StatementParser.withDivKeyword(query)
              : query;
      if (StatementParser.parse(text) instanceof Select select) {
        return select;
      }
    } catch (JSQLParserException | RuntimeException e) {
      throw TimelakeException.validation(
          "Cannot read view %s: its query cannot be read: %s",
          view, String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
    throw TimelakeException.validation("Cannot read view %s: its query is not a SELECT", view);
  }
}

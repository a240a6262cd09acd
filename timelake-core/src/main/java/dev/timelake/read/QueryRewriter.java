package dev.timelake.sql;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.read.DedupStrategy;
import dev.timelake.read.ScanPlan;
import dev.timelake.read.ScanPlanner;
import dev.timelake.read.ScanSql;
import dev.timelake.table.Settings;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Rewrites a parsed statement for DuckDB: each Timelake table reference becomes a temporary view
 * over the files its plan reads (pruned by the WHERE clause around it, deduplicated where files may
 * share keys), and time buckets on time columns become integer arithmetic.
 */
final class QueryRewriter {
  private final LakeCatalog catalog;
  private final EngineConnection connection;
  private final SessionSettings settings;
  private final ConstantEvaluator constants;
  private final List<String> explanation = new ArrayList<>();

  QueryRewriter(LakeCatalog catalog, EngineConnection connection, SessionSettings settings) {
    this.catalog = catalog;
    this.connection = connection;
    this.settings = settings;
    this.constants = new ConstantEvaluator(connection);
  }

  /** What the rewrite did, one line per table reference. */
  List<String> explanation() {
    return List.copyOf(explanation);
  }

  /** Rewrites {@code statement} in place and prints it as DuckDB SQL. */
  String rewrite(Statement statement) {
    List<TableReferences.Reference> references = TableReferences.of(statement);
    Map<Table, LoadedTable> resolved = new IdentityHashMap<>();
    for (TableReferences.Reference reference : references) {
      resolve(reference.table()).ifPresent(table -> resolved.put(reference.table(), table));
    }
    Set<String> timeColumns = new HashSet<>();
    for (TableReferences.Reference reference : references) {
      LoadedTable table = resolved.get(reference.table());
      if (table != null) {
        table.contract().timeColumn().ifPresent(c -> timeColumns.add(c.toLowerCase(Locale.ROOT)));
        replaceWithView(reference, table, resolved);
      }
    }
    return new TimeBucketRewriter(constants, timeColumns).print(statement);
  }

  private Optional<LoadedTable> resolve(Table table) {
    if (table.getName() == null || table.getNameParts().size() > 2) {
      return Optional.empty();
    }
    try {
      return catalog.load(SyntaxNames.tableName(table));
    } catch (dev.timelake.ValidationException e) {
      return Optional.empty();
    }
  }

  private void replaceWithView(
      TableReferences.Reference reference, LoadedTable table, Map<Table, LoadedTable> resolved) {
    Table node = reference.table();
    TableContract contract = table.contract();
    org.apache.iceberg.expressions.Expression filter =
        reference.enclosing() == null
            ? org.apache.iceberg.expressions.Expressions.alwaysTrue()
            : pruningFilter(reference, contract, resolved).of(reference.enclosing().getWhere());
    boolean dedup = settings.isEnabled(Settings.READ_DEDUP, contract);
    ScanPlan plan = ScanPlanner.plan(table, filter, dedup);
    DedupStrategy strategy =
        DedupStrategy.parse(
            settings.resolve(Settings.READ_DEDUP_STRATEGY, contract).orElse("merge"));
    String relation = ScanSql.relation(plan, strategy);
    catalog.heat().record(table.name(), plan.partitions());
    explanation.add(
        plan.explanation()
            + (filter.op() == org.apache.iceberg.expressions.Expression.Operation.TRUE
                ? ""
                : "; pruning filter: " + filter));
    if (node.getAlias() == null) {
      node.setAlias(new Alias(SyntaxNames.unquote(node.getName()), false));
    }
    // The table node prints as the subquery that reads the plan's files; the relation is generated
    // SQL (names and paths through SqlText), never user text.
    node.setSchemaName(null);
    node.setName("(" + relation + ")");
  }

  private PruningFilter pruningFilter(
      TableReferences.Reference reference,
      TableContract contract,
      Map<Table, LoadedTable> resolved) {
    Table node = reference.table();
    Set<String> qualifiers = new HashSet<>();
    if (node.getAlias() != null) {
      qualifiers.add(SyntaxNames.unquote(node.getAlias().getName()).toLowerCase(Locale.ROOT));
    } else {
      qualifiers.add(SyntaxNames.unquote(node.getName()).toLowerCase(Locale.ROOT));
    }
    return new PruningFilter(
        contract, qualifiers, unqualifiedKeyColumns(reference, contract, resolved), constants);
  }

  /**
   * Key columns an unqualified reference in the enclosing SELECT must mean: all of them when the
   * table is the only FROM item, else those no other FROM item has (only when every other item is a
   * Timelake table whose columns are known).
   */
  private static Set<String> unqualifiedKeyColumns(
      TableReferences.Reference reference,
      TableContract contract,
      Map<Table, LoadedTable> resolved) {
    PlainSelect select = reference.enclosing();
    List<FromItem> others = new ArrayList<>();
    if (select.getFromItem() != null && select.getFromItem() != reference.table()) {
      others.add(select.getFromItem());
    }
    if (select.getJoins() != null) {
      for (Join join : select.getJoins()) {
        if (join.getRightItem() != reference.table()) {
          others.add(join.getRightItem());
        }
      }
    }
    Set<String> columns = new HashSet<>(contract.keyColumns());
    for (FromItem other : others) {
      LoadedTable otherTable = other instanceof Table t ? resolved.get(t) : null;
      if (otherTable == null) {
        return Set.of();
      }
      for (String name : otherTable.contract().columnNames()) {
        columns.removeIf(name::equalsIgnoreCase);
      }
    }
    return columns;
  }
}

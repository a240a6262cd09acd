package dev.timelake.read;

import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.PinnedTable;
import dev.timelake.catalog.PinnedTables;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.table.SessionSettings;
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
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Rewrites a parsed statement for DuckDB: each Timelake table reference becomes the relation that
 * reads the files its plan reads (pruned by the WHERE clause around it, deduplicated where files
 * may share keys), and time buckets on time columns become integer arithmetic. Every reference
 * reads the snapshot its statement's {@link PinnedTables} holds for the table.
 */
public final class QueryRewriter {
  private final LakeCatalog catalog;
  private final PinnedTables tables;
  private final EngineConnection connection;
  private final SessionSettings settings;
  private final ConstantEvaluator constants;
  private final List<dev.timelake.QueryPlan.TableRead> reads = new ArrayList<>();
  private final Map<Table, Expression> pushed = new IdentityHashMap<>();
  private java.util.function.Function<TableName, List<PlannedFile>> held = name -> List.of();

  public QueryRewriter(
      LakeCatalog catalog,
      PinnedTables tables,
      EngineConnection connection,
      SessionSettings settings) {
    this(catalog, tables, connection, settings, new ConstantEvaluator(connection));
  }

  /**
   * A rewriter sharing {@code constants} with the rest of the statement's planning, so a volatile
   * constant such as {@code now()} has one value throughout.
   */
  public QueryRewriter(
      LakeCatalog catalog,
      PinnedTables tables,
      EngineConnection connection,
      SessionSettings settings,
      ConstantEvaluator constants) {
    this.catalog = catalog;
    this.tables = tables;
    this.connection = connection;
    this.settings = settings;
    this.constants = constants;
  }

  /**
   * Applies {@code keyFilter} to every file {@code node} reads, before copies are removed; the
   * filter MUST read only the table's key columns, unqualified (see {@link ScanSql}).
   */
  public QueryRewriter pushDown(Table node, Expression keyFilter) {
    pushed.put(node, keyFilter);
    return this;
  }

  /**
   * Reads, for each table, the files {@code held} gives next to its committed ones: the rows a
   * client's open transaction holds (see {@link ScanPlan#withHeld}).
   */
  public QueryRewriter withHeldRows(
      java.util.function.Function<TableName, List<PlannedFile>> heldRows) {
    this.held = heldRows;
    return this;
  }

  /** What the rewrite did, one line per table reference. */
  public List<dev.timelake.QueryPlan.TableRead> reads() {
    return List.copyOf(reads);
  }

  /**
   * Prints {@code statement} as DuckDB SQL: each Timelake table reference as the relation its plan
   * reads (the tree keeps its table nodes; a reference without an alias gets its table's name as
   * one, so that qualified columns still find it).
   */
  public String rewrite(Statement statement) {
    List<TableReferences.Reference> references = TableReferences.of(statement);
    Map<Table, PinnedTable> resolved = new IdentityHashMap<>();
    for (TableReferences.Reference reference : references) {
      resolve(reference.table()).ifPresent(table -> resolved.put(reference.table(), table));
    }
    Set<String> timeColumns = new HashSet<>();
    Map<Table, ScanRelation> relations = new IdentityHashMap<>();
    for (TableReferences.Reference reference : references) {
      PinnedTable table = resolved.get(reference.table());
      if (table != null) {
        bucketedTimeColumn(table.contract())
            .ifPresent(c -> timeColumns.add(c.toLowerCase(Locale.ROOT)));
        relations.put(reference.table(), plan(reference, table, resolved));
      }
    }
    // Rendering: the relations' SQL, over local copies of remote files (the I/O happens here).
    Map<Table, String> rendered = new IdentityHashMap<>();
    relations.forEach((node, relation) -> rendered.put(node, relation.sql()));
    return new TimeBucketRewriter(constants, timeColumns, connection.isUtc())
        .print(statement, rendered);
  }

  /**
   * The time column whose time_bucket calls become integer arithmetic: a TIMESTAMPTZ one (the
   * arithmetic yields TIMESTAMPTZ; DuckDB buckets a TIMESTAMP column itself, in its own type).
   */
  static Optional<String> bucketedTimeColumn(dev.timelake.table.TableContract contract) {
    return contract
        .timeColumn()
        .filter(c -> contract.column(c).type().kind() == dev.timelake.ColumnType.Kind.TIMESTAMPTZ);
  }

  private Optional<PinnedTable> resolve(Table table) {
    if (table.getName() == null || table.getNameParts().size() > 2) {
      return Optional.empty();
    }
    TableName name;
    try {
      name = SyntaxNames.tableName(table);
    } catch (dev.timelake.ValidationException e) {
      return Optional.empty();
    }
    Optional<PinnedTable> found = tables.find(name);
    // A qualified name in one of the lake's namespaces can only mean a lake table; DuckDB would
    // say the schema does not exist. Unqualified names may be the session's own views.
    if (found.isEmpty() && isLakeNamespace(table.getSchemaName())) {
      throw catalog.missing(name);
    }
    if (found.isPresent() && TimeTravel.asks(table)) {
      // This reference alone reads the earlier snapshot; others of the table read the pinned one.
      return Optional.of(TimeTravel.pin(table, found.get(), connection));
    }
    return found;
  }

  private boolean isLakeNamespace(String schema) {
    if (schema == null) {
      return false;
    }
    String namespace = SyntaxNames.unquote(schema);
    return !namespace.equalsIgnoreCase("main")
        && !namespace.equalsIgnoreCase("temp")
        && catalog.hasNamespace(namespace);
  }

  /** Plans what one table reference reads, and records the decisions for the query's plan. */
  private ScanRelation plan(
      TableReferences.Reference reference, PinnedTable table, Map<Table, PinnedTable> resolved) {
    Table node = reference.table();
    TableContract contract = table.contract();
    org.apache.iceberg.expressions.Expression filter =
        reference.enclosing() == null
            ? org.apache.iceberg.expressions.Expressions.alwaysTrue()
            : pruningFilter(reference, contract, resolved).of(reference.enclosing().getWhere());
    boolean dedup = settings.isEnabled(Settings.READ_DEDUP, contract);
    boolean current = table.snapshotId() == tables.require(table.name()).snapshotId();
    ScanPlan plan =
        ScanPlanner.plan(table, filter, dedup)
            .withHeld(current ? held.apply(table.name()) : List.of());
    DedupStrategy strategy =
        DedupStrategy.parse(
            settings.resolve(Settings.READ_DEDUP_STRATEGY, contract).orElse("merge"));
    Optional<Expression> keyFilter =
        Optional.ofNullable(pushed.get(node)).or(() -> keyFilter(reference, contract));
    if (strategy == DedupStrategy.MERGE
        && keyFilter.isPresent()
        && KeyFilter.reads(keyFilter.get(), lowerCase(contract.seriesKey()))) {
      // Narrowed to some series: rank their rows in one read rather than read each group again.
      strategy = DedupStrategy.RANK;
    }
    Optional<String> keyFilterText = keyFilter.map(KeyFilter::text);
    Set<Integer> partitions = plan.partitions();
    catalog.heat().record(table.name(), partitions);
    reads.add(read(table, plan, partitions.size(), strategy, filter, keyFilterText));
    if (node.getAlias() == null) {
      node.setAlias(new Alias(SyntaxNames.unquote(node.getName()), false));
    }
    return new ScanRelation(plan, strategy, keyFilterText, table.table().files());
  }

  /** The decisions made for one table reference, as the plan's value. */
  private static dev.timelake.QueryPlan.TableRead read(
      PinnedTable table,
      ScanPlan plan,
      int partitions,
      DedupStrategy strategy,
      org.apache.iceberg.expressions.Expression filter,
      Optional<String> keyFilter) {
    return new dev.timelake.QueryPlan.TableRead(
        table.name(),
        plan.snapshotId(),
        plan.fileCount(),
        plan.filesBeforePruning(),
        partitions,
        plan.partitionsBeforePruning(),
        plan.overlapping().size(),
        plan.overlapping().stream().mapToInt(List::size).sum(),
        plan.deduplicated()
            ? dev.timelake.QueryPlan.Dedup.valueOf(strategy.name())
            : dev.timelake.QueryPlan.Dedup.NONE,
        filter.op() == org.apache.iceberg.expressions.Expression.Operation.TRUE
            ? Optional.empty()
            : Optional.of(filter.toString()),
        keyFilter,
        plan.heldFiles());
  }

  /**
   * The WHERE conjuncts on key columns of a query over this table alone, applied to its files
   * before copies are removed (see {@link KeyFilter}); with joins they stay outside.
   */
  private static Optional<Expression> keyFilter(
      TableReferences.Reference reference, TableContract contract) {
    PlainSelect select = reference.enclosing();
    if (select == null
        || select.getFromItem() != reference.table()
        || (select.getJoins() != null && !select.getJoins().isEmpty())) {
      return Optional.empty();
    }
    Table node = reference.table();
    Set<String> qualifiers = new HashSet<>();
    qualifiers.add(
        SyntaxNames.unquote(node.getAlias() != null ? node.getAlias().getName() : node.getName())
            .toLowerCase(Locale.ROOT));
    // A row of a table whose rows replace the others of their interval may replace one at
    // another time: only the series key is the same for every copy.
    List<String> keys =
        contract.replacesWithinInterval() ? contract.seriesKey() : contract.keyColumns();
    return KeyFilter.of(select.getWhere(), lowerCase(keys), qualifiers);
  }

  private static Set<String> lowerCase(List<String> names) {
    Set<String> lower = new HashSet<>();
    names.forEach(name -> lower.add(name.toLowerCase(Locale.ROOT)));
    return lower;
  }

  private PruningFilter pruningFilter(
      TableReferences.Reference reference,
      TableContract contract,
      Map<Table, PinnedTable> resolved) {
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
      Map<Table, PinnedTable> resolved) {
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
      PinnedTable otherTable = other instanceof Table t ? resolved.get(t) : null;
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

package dev.timelake.read;

import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.SyntaxNames;
import dev.timelake.engine.SyntaxTrees;
import dev.timelake.time.BucketGrid;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;

/**
 * Rewrites {@code time_bucket(width, time [, origin])} and {@code date_bin(width, time [, origin])}
 * on a Timelake time column into integer arithmetic on epoch microseconds. DuckDB buckets a
 * TIMESTAMPTZ through its time-zone library, about 30 times slower; the arithmetic gives the same
 * result in UTC for every fixed width (no months). Origins: DuckDB's {@code time_bucket} default
 * (2000-01-03, a Monday) and the epoch for {@code date_bin}, as in DataFusion.
 */
public final class TimeBucketRewriter {
  private final ConstantEvaluator constants;
  private final Set<String> timeColumns;
  private final boolean utc;

  /**
   * @param timeColumns lower-case names of the time columns of Timelake tables in the statement
   */
  public TimeBucketRewriter(ConstantEvaluator constants, Set<String> timeColumns) {
    this(constants, timeColumns, true);
  }

  /**
   * @param utc false when the session's time zone is not UTC: DuckDB then buckets TIMESTAMPTZ in
   *     local time, which integer arithmetic in UTC would not match, so buckets are left alone
   */
  public TimeBucketRewriter(ConstantEvaluator constants, Set<String> timeColumns, boolean utc) {
    this.constants = constants;
    this.timeColumns = timeColumns;
    this.utc = utc;
  }

  /** Prints the statement with every eligible call rewritten. */
  public String print(Statement statement) {
    return print(statement, Map.of());
  }

  /**
   * Prints the statement with every eligible call rewritten and each table node of {@code
   * relations} as its relation: generated SQL (names and paths through SqlText), never user text.
   */
  public String print(Statement statement, Map<Table, String> relations) {
    return SyntaxPrinter.print(statement, this::rewriteCall, relations);
  }

  private boolean rewriteCall(Function function) {
    renameOrderedFirstAndLast(function);
    String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
    boolean timeBucket = name.equals("time_bucket");
    if (!utc || (!timeBucket && !name.equals("date_bin"))) {
      return false;
    }
    ExpressionList<?> parameters = function.getParameters();
    if (parameters == null || parameters.size() < 2 || parameters.size() > 3) {
      return false;
    }
    Expression width = parameters.get(0);
    Expression source = parameters.get(1);
    Column column = SyntaxNames.column(source).orElse(null);
    if (column == null
        || !timeColumns.contains(column.getColumnName().toLowerCase(Locale.ROOT))
        || !ConstantEvaluator.isConstant(width)) {
      return false;
    }
    Optional<Long> widthMicros = constants.fixedWidthMicros(width);
    if (widthMicros.isEmpty() || widthMicros.get() <= 0) {
      return false;
    }
    long origin =
        timeBucket ? BucketGrid.TIME_BUCKET_ORIGIN_MICROS : BucketGrid.EPOCH_ORIGIN_MICROS;
    if (parameters.size() == 3) {
      Expression third = parameters.get(2);
      Optional<Long> originMicros =
          ConstantEvaluator.isConstant(third) && isTimestamp(third)
              ? constants.micros(third)
              : Optional.empty();
      if (originMicros.isEmpty()) {
        return false;
      }
      origin = originMicros.get();
    }
    function.setName("make_timestamptz");
    function.setParameters(new ExpressionList<>(bucketStart(column, widthMicros.get(), origin)));
    return true;
  }

  private boolean isTimestamp(Expression expression) {
    return constants
        .evaluate(expression, "typeof(", ")")
        .map(type -> type.toString().startsWith("TIMESTAMP"))
        .orElse(false);
  }

  /**
   * {@code first_value(x ORDER BY t)} and {@code last_value(x ORDER BY t)} as aggregates (the
   * rollup spec's names) become DuckDB's ordered aggregates {@code first} and {@code last}; as
   * window functions they are left alone.
   */
  static void renameOrderedFirstAndLast(Function function) {
    String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
    boolean ordered =
        function.getOrderByElements() != null && !function.getOrderByElements().isEmpty();
    if (ordered && name.equals("first_value")) {
      function.setName("first");
    } else if (ordered && name.equals("last_value")) {
      function.setName("last");
    }
  }

  /** {@code us - floorMod(us - origin, width)} where {@code us = epoch_us(column)}. */
  static Expression bucketStart(Column column, long width, long origin) {
    return SyntaxTrees.bucketStartMicros(new Function("epoch_us", column), width, origin);
  }
}

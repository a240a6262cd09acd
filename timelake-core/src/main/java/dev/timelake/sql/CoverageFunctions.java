package dev.timelake.sql;

import dev.timelake.ColumnType;
import dev.timelake.CoverageSummary;
import dev.timelake.QueryFailedException;
import dev.timelake.TableName;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.catalog.LoadedTable;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.index.CoverageView;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBDataChunkWriter;
import org.duckdb.DuckDBFunctions;
import org.duckdb.DuckDBTableFunction;
import org.duckdb.DuckDBTableFunctionBindInfo;
import org.duckdb.DuckDBTableFunctionCallInfo;
import org.duckdb.DuckDBTableFunctionInitInfo;
import org.duckdb.DuckDBWritableVector;

/**
 * The coverage of an ordered index from SQL, answered from coverage without reading data files:
 *
 * <pre>{@code
 * SELECT * FROM timelake_coverage('market.bars', TIMESTAMPTZ '2026-01-01', TIMESTAMPTZ '2026-02-01')
 * SELECT * FROM timelake_gaps('market.bars', '2026-01-01', '2026-02-01', min_intervals := 5)
 *     WHERE symbol = 'NVDA'
 * }</pre>
 *
 * One row per series (its entity columns first) with covered, expected and missing interval counts,
 * the covered ratio and the longest gap; or one row per gap with its start, end and length in
 * intervals. Java table functions behind two table macros that turn the range into µs.
 */
final class CoverageFunctions {
  private static final Pattern MENTION = Pattern.compile("(?i)\\btimelake_(coverage|gaps)\\s*\\(");

  private CoverageFunctions() {}

  /** Defines the functions on the lake's engine the first time a statement names one. */
  static void installOn(LakeCatalog catalog) {
    catalog
        .engine()
        .installWhenMentioned("coverage", MENTION, connection -> define(catalog, connection));
  }

  private static void define(LakeCatalog catalog, EngineConnection connection) {
    try {
      DuckDBFunctions.tableFunction()
          .withName("__timelake_coverage")
          .withParameters(
              DuckDBColumnType.VARCHAR, DuckDBColumnType.VARCHAR, DuckDBColumnType.VARCHAR)
          .withFunction(new RowsFunction(catalog, false))
          .register(connection.jdbc());
      DuckDBFunctions.tableFunction()
          .withName("__timelake_gaps")
          .withParameters(
              DuckDBColumnType.VARCHAR,
              DuckDBColumnType.VARCHAR,
              DuckDBColumnType.VARCHAR,
              DuckDBColumnType.BIGINT)
          .withFunction(new RowsFunction(catalog, true))
          .register(connection.jdbc());
    } catch (SQLException e) {
      throw new QueryFailedException("Cannot define the coverage functions: " + e.getMessage(), e);
    }
    connection.execute(
        "CREATE OR REPLACE MACRO timelake_coverage(t, range_start, range_end) AS TABLE SELECT *"
            + " FROM __timelake_coverage(t, CAST(range_start AS VARCHAR), CAST(range_end AS"
            + " VARCHAR))");
    connection.execute(
        "CREATE OR REPLACE MACRO timelake_gaps(t, range_start, range_end, min_intervals := 1) AS"
            + " TABLE SELECT * FROM __timelake_gaps(t, CAST(range_start AS VARCHAR),"
            + " CAST(range_end AS VARCHAR), CAST(min_intervals AS BIGINT))");
  }

  /** The rows of one call, computed at bind time (they are few) and handed out in chunks. */
  private record Rows(List<ColumnType.Kind> kinds, List<List<Object>> rows) {}

  private static final class Cursor {
    int next;
  }

  private static final class RowsFunction implements DuckDBTableFunction<Rows, Cursor, Object> {
    private final LakeCatalog catalog;
    private final boolean gaps;

    RowsFunction(LakeCatalog catalog, boolean gaps) {
      this.catalog = catalog;
      this.gaps = gaps;
    }

    /**
     * Every argument is checked before its value is read: reading a NULL DuckDB value from Java
     * aborts the whole process in native code.
     */
    @Override
    public Rows bind(DuckDBTableFunctionBindInfo info) {
      String function = gaps ? "timelake_gaps" : "timelake_coverage";
      String table0 = text(info, 0, function, "a table name");
      String start = text(info, 1, function, "a range start");
      String end = text(info, 2, function, "a range end");
      if (table0.isBlank()) {
        throw dev.timelake.TimelakeException.validation(
            "%s needs a table name, not an empty string", function);
      }
      TableName name = TableName.parse(table0);
      LoadedTable table = catalog.require(name);
      if (!table.contract().hasIndexGranularity()) {
        throw dev.timelake.TimelakeException.validation(
            "%s(%s, …): %s has no index granularity, so it keeps no coverage (create it with"
                + " index_granularity)",
            function, SqlText.literal(table0), name);
      }
      boolean clock = table.contract().hasLogicalClock();
      CoverageView view;
      long from;
      long to;
      try (EngineConnection connection = catalog.engine().connect()) {
        view = CoverageView.current(table.iceberg(), table.contract(), connection);
        from = bound(connection, table, start);
        to = bound(connection, table, end);
      }
      if (from > to) {
        throw dev.timelake.TimelakeException.validation(
            "%s(%s, %s, %s): the range ends before it starts",
            function, SqlText.literal(table0), SqlText.literal(start), SqlText.literal(end));
      }
      DuckDBColumnType gapBound =
          clock ? DuckDBColumnType.BIGINT : DuckDBColumnType.TIMESTAMP_WITH_TIME_ZONE;
      ColumnType.Kind gapKind = clock ? ColumnType.Kind.BIGINT : ColumnType.Kind.TIMESTAMPTZ;
      List<ColumnType.Kind> kinds = new ArrayList<>();
      for (String column : table.contract().seriesKey()) {
        ColumnType.Kind kind =
            table.contract().isUnsigned(column)
                ? ColumnType.Kind.UBIGINT
                : table.contract().column(column).type().kind();
        info.addResultColumn(column, duckdbType(kind));
        kinds.add(kind);
      }
      List<List<Object>> rows = new ArrayList<>();
      if (gaps) {
        long minIntervals = whole(info, 3, function, "min_intervals");
        if (minIntervals < 1) {
          throw dev.timelake.TimelakeException.validation(
              "%s: min_intervals must be at least 1, not %d", function, minIntervals);
        }
        info.addResultColumn("gap_start", gapBound);
        info.addResultColumn("gap_end", gapBound);
        info.addResultColumn("intervals", DuckDBColumnType.BIGINT);
        kinds.addAll(List.of(gapKind, gapKind, ColumnType.Kind.BIGINT));
        view.allGaps(from, to, minIntervals)
            .forEach(
                (identity, ranges) -> {
                  for (dev.timelake.ClockRange range : ranges) {
                    List<Object> row = new ArrayList<>(identity.values());
                    row.add(clock ? range.start() : instant(range.start()));
                    row.add(clock ? range.end() : instant(range.end()));
                    row.add(range.intervals());
                    rows.add(row);
                  }
                });
      } else {
        for (String column : List.of("covered", "expected", "missing")) {
          info.addResultColumn(column, DuckDBColumnType.BIGINT);
        }
        info.addResultColumn("ratio", DuckDBColumnType.DOUBLE);
        info.addResultColumn("longest_gap", DuckDBColumnType.BIGINT);
        kinds.addAll(
            List.of(
                ColumnType.Kind.BIGINT,
                ColumnType.Kind.BIGINT,
                ColumnType.Kind.BIGINT,
                ColumnType.Kind.DOUBLE,
                ColumnType.Kind.BIGINT));
        for (CoverageSummary summary : view.summaries(from, to)) {
          List<Object> row = new ArrayList<>(summary.identity().values());
          row.addAll(
              List.of(
                  summary.covered(),
                  summary.expected(),
                  summary.missing(),
                  summary.ratio(),
                  summary.longestGap()));
          rows.add(row);
        }
      }
      info.setCardinality(rows.size(), true);
      return new Rows(kinds, rows);
    }

    @Override
    public Cursor init(DuckDBTableFunctionInitInfo info) {
      info.setMaxThreads(1);
      return new Cursor();
    }

    @Override
    public long apply(DuckDBTableFunctionCallInfo info, DuckDBDataChunkWriter out) {
      Rows rows = info.getBindData();
      Cursor cursor = info.getInitData();
      int count = (int) Math.min(out.capacity(), rows.rows().size() - cursor.next);
      for (int i = 0; i < count; i++) {
        List<Object> row = rows.rows().get(cursor.next + i);
        for (int c = 0; c < row.size(); c++) {
          write(out.vector(c), i, rows.kinds().get(c), row.get(c));
        }
      }
      cursor.next += count;
      return count;
    }
  }

  /** Argument {@code index} (VARCHAR) as text, refused with a message when it is NULL. */
  private static String text(
      DuckDBTableFunctionBindInfo info, int index, String function, String what) {
    try (org.duckdb.DuckDBValue value = argument(info, index, function, what)) {
      return value.getString();
    }
  }

  /** Argument {@code index} (BIGINT), refused with a message when it is NULL. */
  private static long whole(
      DuckDBTableFunctionBindInfo info, int index, String function, String what) {
    try (org.duckdb.DuckDBValue value = argument(info, index, function, what)) {
      return value.getLong();
    }
  }

  /** Argument {@code index}, present and not NULL; the caller closes it. */
  private static org.duckdb.DuckDBValue argument(
      DuckDBTableFunctionBindInfo info, int index, String function, String what) {
    if (index >= info.parametersCount()) {
      throw dev.timelake.TimelakeException.validation("%s needs %s", function, what);
    }
    org.duckdb.DuckDBValue value = info.getParameter(index);
    if (value == null) {
      throw dev.timelake.TimelakeException.validation("%s needs %s, not NULL", function, what);
    }
    if (value.isNull()) {
      value.close();
      throw dev.timelake.TimelakeException.validation("%s needs %s, not NULL", function, what);
    }
    return value;
  }

  private static void write(
      DuckDBWritableVector vector, int row, ColumnType.Kind kind, Object value) {
    switch (kind) {
      case VARCHAR -> vector.setString(row, (String) value);
      case INTEGER -> vector.setInt(row, (Integer) value);
      case UBIGINT -> vector.setUint64(row, (java.math.BigInteger) value);
      case DOUBLE -> vector.setDouble(row, (Double) value);
      case TIMESTAMPTZ ->
          vector.setOffsetDateTime(row, OffsetDateTime.ofInstant((Instant) value, ZoneOffset.UTC));
      default -> vector.setLong(row, ((Number) value).longValue());
    }
  }

  private static DuckDBColumnType duckdbType(ColumnType.Kind kind) {
    return switch (kind) {
      case VARCHAR -> DuckDBColumnType.VARCHAR;
      case INTEGER -> DuckDBColumnType.INTEGER;
      case UBIGINT -> DuckDBColumnType.UBIGINT;
      default -> DuckDBColumnType.BIGINT;
    };
  }

  /**
   * A range bound as the index holds it: a logical clock's integer, or a timestamp's µs since the
   * epoch (the text of any TIMESTAMPTZ, DATE or timestamp string).
   */
  private static long bound(EngineConnection connection, LoadedTable table, String text) {
    if (table.contract().hasLogicalClock()) {
      try {
        return Long.parseLong(text.strip());
      } catch (NumberFormatException e) {
        throw dev.timelake.TimelakeException.validation(
            "The index of %s is a BIGINT logical clock: range bounds are integers, not '%s'",
            table.name(), text);
      }
    }
    try {
      return ((Number)
              connection.scalar(
                  "SELECT epoch_us(CAST("
                      + dev.timelake.engine.SqlText.literal(text)
                      + " AS TIMESTAMPTZ))"))
          .longValue();
    } catch (QueryFailedException e) {
      throw dev.timelake.TimelakeException.validation(
          "The index of %s is a timestamp: '%s' is not one", table.name(), text);
    }
  }

  private static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS);
  }
}

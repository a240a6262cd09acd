package dev.timelake.write;

import dev.timelake.Column;
import dev.timelake.QueryFailedException;
import dev.timelake.TimelakeException;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.table.TableContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * Loads an append's sources into one DuckDB temporary table with the table's columns, aligned to
 * its schema, and checks required columns, so that nothing is written before the input is known to
 * be valid. The temporary table keeps input order in its rowid.
 */
final class AppendStager implements AutoCloseable {
  private final EngineConnection connection;
  private final TableContract contract;
  private final String stageTable;
  private long stagedRows;
  private boolean insertionTimesGiven;

  AppendStager(EngineConnection connection, TableContract contract) {
    this.connection = connection;
    this.contract = contract;
    this.stageTable = "__tl_stage_" + UUID.randomUUID().toString().replace("-", "");
    List<String> columns = new ArrayList<>();
    for (Column column : contract.columns()) {
      columns.add(SqlText.identifier(column.name()) + " " + column.type().sql());
    }
    connection.execute(
        "CREATE TEMPORARY TABLE " + stageTable + " (" + String.join(", ", columns) + ")");
  }

  /** The temporary table holding the staged rows. */
  String stageTable() {
    return stageTable;
  }

  /** Rows staged so far. */
  long stagedRows() {
    return stagedRows;
  }

  /** True when a source staged so far gave the table's insertion-time column values of its own. */
  boolean insertionTimesGiven() {
    return insertionTimesGiven;
  }

  /**
   * Stages one source, its rows inserted at {@code ingestMicros} where the input has no insertion
   * time; throws naming the source, column and row when it is invalid, having staged nothing of it.
   */
  void stage(AppendSource source, long ingestMicros) {
    long before = stagedRows;
    try {
      if (source instanceof AppendSource.ParquetFiles parquet) {
        stageParquet(parquet, ingestMicros);
      } else if (source instanceof AppendSource.CsvFile csv) {
        stageCsv(csv, ingestMicros);
      } else if (source instanceof AppendSource.ArrowStream arrow) {
        stageArrow(arrow, ingestMicros);
      } else if (source instanceof AppendSource.Query query) {
        stageRelation("(" + query.sql() + ")", source.describe(), query.casting(), ingestMicros);
      } else if (source instanceof AppendSource.Rows rows) {
        stageRows(rows, ingestMicros);
      }
    } catch (RuntimeException e) {
      forgetFrom(before, e);
      throw e;
    }
  }

  /**
   * Removes the rows staged from row {@code first} on, so that a source that failed part-way leaves
   * the earlier sources' rows as they were (what a transaction's later statement relies on).
   */
  private void forgetFrom(long first, RuntimeException failure) {
    if (stagedRows == first && first == count()) {
      return;
    }
    try {
      connection.execute(
          "DELETE FROM "
              + stageTable
              + " WHERE rowid >= (SELECT min(rowid) FROM "
              + stageTable
              + ") + "
              + first);
      stagedRows = count();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  private long count() {
    return ((Number) connection.scalar("SELECT count(*) FROM " + stageTable)).longValue();
  }

  private void stageParquet(AppendSource.ParquetFiles parquet, long ingestMicros) {
    List<String> paths = new ArrayList<>();
    for (Path file : parquet.files()) {
      requireReadable(file);
      paths.add(file.toAbsolutePath().toString());
    }
    stageRelation(
        "read_parquet(" + SqlText.literalList(paths) + ")",
        Optional.empty(),
        parquet.describe(),
        AppendSource.Casting.LOSSLESS,
        ingestMicros,
        parquet.epochUnit());
  }

  /**
   * Stages a CSV file read with the table's types; a file with no data rows stages nothing. When
   * DuckDB refuses the file, the error names the file's line: a ragged one, else the first value
   * that does not convert.
   */
  private void stageCsv(AppendSource.CsvFile csv, long ingestMicros) {
    requireReadable(csv.input().file());
    CsvLayout layout = CsvLayout.of(csv.input());
    if (!layout.hasRows()) {
      return;
    }
    String sourceName = csv.describe();
    List<InputColumn> header;
    try {
      header = describe(layout.relation(Map.of()), sourceName);
    } catch (dev.timelake.ValidationException e) {
      throw csvError(layout, sourceName, e);
    }
    Map<String, Column> typedColumns = new LinkedHashMap<>();
    Map<String, String> types = new LinkedHashMap<>();
    // The typed relation's columns, known without describing it again: the header's, read as
    // the table's types where the table has them.
    List<InputColumn> typed = new ArrayList<>();
    for (InputColumn column : header) {
      for (Column tableColumn : contract.columns()) {
        if (tableColumn.name().equalsIgnoreCase(column.name())) {
          typedColumns.put(column.name(), tableColumn);
          types.put(column.name(), csvType(tableColumn, csv.epochUnit()));
        }
      }
      String type = types.get(column.name());
      typed.add(type == null ? column : new InputColumn(column.name(), type));
    }
    try {
      stageRelation(
          layout.relation(types),
          Optional.of(typed),
          sourceName,
          AppendSource.Casting.LOSSLESS,
          ingestMicros,
          csv.epochUnit());
    } catch (dev.timelake.ValidationException e) {
      if (!(e.getCause() instanceof QueryFailedException)) {
        throw e;
      }
      throw layout
          .firstRaggedLine()
          .map(ragged -> csvRejected(sourceName, ragged, e))
          .or(() -> firstUnconvertible(layout, types, typedColumns, sourceName, e))
          .orElseGet(() -> withoutPath(layout, e));
    }
  }

  /** How DuckDB reads a CSV column: as the table's type, or integers for an epoch time column. */
  private String csvType(Column column, Optional<java.time.temporal.ChronoUnit> epochUnit) {
    boolean epochTime =
        epochUnit.isPresent() && contract.timeColumn().filter(column.name()::equals).isPresent();
    return epochTime ? "BIGINT" : column.type().sql();
  }

  /** A refused CSV file: the ragged line when there is one, else DuckDB's reason, pathless. */
  private TimelakeException csvError(
      CsvLayout layout, String sourceName, dev.timelake.ValidationException failure) {
    return layout
        .firstRaggedLine()
        .map(ragged -> csvRejected(sourceName, ragged, failure))
        .orElseGet(() -> withoutPath(layout, failure));
  }

  private static TimelakeException withoutPath(
      CsvLayout layout, dev.timelake.ValidationException failure) {
    return new dev.timelake.ValidationException(
        layout.withoutPath(failure.getMessage()), failure.getCause());
  }

  private TimelakeException csvRejected(String sourceName, String reason, RuntimeException cause) {
    return new dev.timelake.ValidationException(
        String.format(
            "Cannot append to %s: cannot read %s: %s", contract.name(), sourceName, reason),
        cause.getCause());
  }

  /**
   * The error naming the first CSV value that does not convert to its column's type, found by
   * reading the file as text again: DuckDB's own error counts rows, not the file's lines.
   */
  private Optional<TimelakeException> firstUnconvertible(
      CsvLayout layout,
      Map<String, String> types,
      Map<String, Column> typedColumns,
      String sourceName,
      RuntimeException cause) {
    List<ValueCheck> checks = new ArrayList<>();
    types.forEach((header, type) -> checks.add(new ValueCheck(header, type, null)));
    if (checks.isEmpty()) {
      return Optional.empty();
    }
    return firstBadValue(layout.relation(Map.of()), checks)
        .map(
            bad ->
                new dev.timelake.ValidationException(
                    String.format(
                        "Cannot append to %s: cannot read %s: line %d, column %s: %s is not a valid"
                            + " %s%s",
                        contract.name(),
                        sourceName,
                        layout.lineOfRow(bad.row()),
                        bad.check().column(),
                        SqlText.literal(bad.value()),
                        bad.check().type(),
                        epochHint(typedColumns.get(bad.check().column()), bad)),
                    cause.getCause()));
  }

  /** What to do about an integer in a timestamp column: give its unit. */
  private String epochHint(Column column, BadValue bad) {
    boolean timestamp =
        column.type().kind() == dev.timelake.ColumnType.Kind.TIMESTAMPTZ
            || column.type().kind() == dev.timelake.ColumnType.Kind.TIMESTAMP;
    if (!timestamp || !bad.value().strip().matches("-?\\d+")) {
      return "";
    }
    return contract.timeColumn().filter(column.name()::equals).isPresent()
        ? " (integers in the time column need their unit: timelake import --time-format"
            + " epoch-s|epoch-ms|epoch-us|epoch-ns, Append.timeFromEpoch in Java)"
        : " (only the time column converts integers, with timelake import --time-format)";
  }

  /**
   * A column whose values must convert to {@code type}; with {@code inputType}, they must also
   * convert back unchanged (a narrowing cast).
   */
  private record ValueCheck(String column, String type, String inputType) {
    String failed(String value) {
      String converted = "TRY_CAST(" + value + " AS " + type + ")";
      return value
          + " IS NOT NULL AND ("
          + converted
          + " IS NULL"
          + (inputType == null
              ? ""
              : " OR TRY_CAST(" + converted + " AS " + inputType + ") IS DISTINCT FROM " + value)
          + ")";
    }
  }

  /** The first failing value of a relation: its row (from 1), check, text and whether it fit. */
  private record BadValue(long row, ValueCheck check, String value, boolean fits) {}

  /** The first row of {@code relation} where a check fails, all checks in one scan. */
  private Optional<BadValue> firstBadValue(String relation, List<ValueCheck> checks) {
    List<String> columns = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < checks.size(); i++) {
      ValueCheck check = checks.get(i);
      String value = SqlText.identifier(check.column());
      columns.add("CAST(" + value + " AS VARCHAR) AS __tl_v" + i);
      columns.add("(" + check.failed(value) + ") AS __tl_bad" + i);
      columns.add("TRY_CAST(" + value + " AS " + check.type() + ") IS NOT NULL AS __tl_fits" + i);
      failures.add("__tl_bad" + i);
    }
    List<List<Object>> rows =
        connection.rows(
            "SELECT * FROM (SELECT row_number() OVER () AS __tl_row, "
                + String.join(", ", columns)
                + " FROM "
                + relation
                + ") WHERE "
                + String.join(" OR ", failures)
                + " ORDER BY __tl_row LIMIT 1");
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    List<Object> row = rows.get(0);
    for (int i = 0; i < checks.size(); i++) {
      if (Boolean.TRUE.equals(row.get(2 + 3 * i))) {
        return Optional.of(
            new BadValue(
                ((Number) row.get(0)).longValue(),
                checks.get(i),
                (String) row.get(1 + 3 * i),
                Boolean.TRUE.equals(row.get(3 + 3 * i))));
      }
    }
    return Optional.empty();
  }

  /**
   * Copies the stream into a temporary table first: a registered stream can be read only once, and
   * the checks before staging read the input more than once.
   */
  private void stageArrow(AppendSource.ArrowStream arrow, long ingestMicros) {
    String name = "__tl_arrow_" + UUID.randomUUID().toString().replace("-", "");
    String copy = "__tl_input_" + UUID.randomUUID().toString().replace("-", "");
    try {
      try (BufferAllocator allocator = exportAllocator(arrow.reader());
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, arrow.reader(), stream);
        connection.jdbc().unwrap(DuckDBConnection.class).registerArrowStream(name, stream);
        connection.execute("CREATE TEMPORARY TABLE " + copy + " AS SELECT * FROM " + name);
      } catch (SQLException | IOException e) {
        throw new QueryFailedException("Cannot read the Arrow input: " + e.getMessage(), e);
      }
      stageRelation(copy, arrow.describe(), arrow.casting(), ingestMicros);
    } finally {
      connection.execute("DROP TABLE IF EXISTS " + copy);
    }
  }

  /**
   * Exported buffers can only move between allocators of one root, so the export allocates under
   * the root of the reader's vectors.
   */
  private static BufferAllocator exportAllocator(ArrowReader reader) throws IOException {
    List<FieldVector> vectors = reader.getVectorSchemaRoot().getFieldVectors();
    return vectors.isEmpty()
        ? new RootAllocator()
        : vectors
            .get(0)
            .getAllocator()
            .getRoot()
            .newChildAllocator("timelake-append", 0, Long.MAX_VALUE);
  }

  /**
   * Rows bound per INSERT of Java values: one statement per row costs about half a millisecond in
   * the engine, so rows go in many to a statement (every value still cast to its column's type).
   */
  private static final int ROWS_PER_INSERT = 256;

  private void stageRows(AppendSource.Rows rows, long ingestMicros) {
    String input = "__tl_rows_" + UUID.randomUUID().toString().replace("-", "");
    List<String> columns = new ArrayList<>();
    for (String column : rows.columns()) {
      columns.add(SqlText.identifier(column) + " " + contract.column(column).type().sql());
    }
    connection.execute("CREATE TEMPORARY TABLE " + input + " (" + String.join(", ", columns) + ")");
    try {
      List<List<Object>> values = rows.rows();
      for (int i = 0; i < values.size(); i++) {
        if (values.get(i).size() != columns.size()) {
          throw SchemaAlignment.rejected(
              contract,
              "row %d has %d values, expected %d",
              i + 1,
              values.get(i).size(),
              columns.size());
        }
      }
      String row =
          "(" + String.join(", ", java.util.Collections.nCopies(columns.size(), "?")) + ")";
      int whole = values.size() - values.size() % ROWS_PER_INSERT;
      if (whole > 0) {
        try (PreparedStatement insert = insertOf(input, row, ROWS_PER_INSERT)) {
          for (int first = 0; first < whole; first += ROWS_PER_INSERT) {
            insertRows(insert, input, row, values, first, ROWS_PER_INSERT);
          }
        } catch (SQLException e) {
          throw SchemaAlignment.rejected(
              contract, "rows could not be converted: %s", e.getMessage());
        }
      }
      if (whole < values.size()) {
        try (PreparedStatement insert = insertOf(input, row, values.size() - whole)) {
          insertRows(insert, input, row, values, whole, values.size() - whole);
        } catch (SQLException e) {
          throw SchemaAlignment.rejected(
              contract, "rows could not be converted: %s", e.getMessage());
        }
      }
      stageRelation(input, rows.describe(), AppendSource.Casting.LOSSLESS, ingestMicros);
    } finally {
      connection.execute("DROP TABLE IF EXISTS " + input);
    }
  }

  private PreparedStatement insertOf(String input, String row, int rows) {
    return connection.prepare(
        "INSERT INTO "
            + input
            + " VALUES "
            + String.join(", ", java.util.Collections.nCopies(rows, row)));
  }

  /**
   * Inserts {@code count} rows from {@code first} with {@code insert}; when they cannot be
   * converted, inserts them one by one to name the first row that cannot (a failed statement
   * inserts nothing) and throws naming it.
   */
  private void insertRows(
      PreparedStatement insert,
      String input,
      String row,
      List<List<Object>> values,
      int first,
      int count)
      throws SQLException {
    int parameter = 1;
    for (int r = first; r < first + count; r++) {
      for (Object value : values.get(r)) {
        insert.setObject(parameter++, JavaValues.toJdbc(value));
      }
    }
    try {
      insert.execute();
    } catch (SQLException e) {
      try (PreparedStatement single = insertOf(input, row, 1)) {
        for (int r = first; r < first + count; r++) {
          for (int c = 0; c < values.get(r).size(); c++) {
            single.setObject(c + 1, JavaValues.toJdbc(values.get(r).get(c)));
          }
          try {
            single.execute();
          } catch (SQLException rejected) {
            throw new SQLException("row " + (r + 1) + ": " + firstLine(rejected), rejected);
          }
        }
      }
      throw e;
    }
  }

  /** The engine's message without the statement it quotes (Timelake's own, not the user's). */
  private static String firstLine(SQLException e) {
    String message = String.valueOf(e.getMessage());
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).strip();
  }

  private void stageRelation(
      String relation, String sourceName, AppendSource.Casting casting, long ingestMicros) {
    stageRelation(relation, Optional.empty(), sourceName, casting, ingestMicros, Optional.empty());
  }

  /**
   * Stages a relation's rows, its {@code columns} described when not given; with {@code epochUnit},
   * an integer time column is first turned into timestamps counting that unit from 1970-01-01 UTC.
   */
  private void stageRelation(
      String relation,
      Optional<List<InputColumn>> columns,
      String sourceName,
      AppendSource.Casting casting,
      long ingestMicros,
      Optional<java.time.temporal.ChronoUnit> epochUnit) {
    List<InputColumn> input = columns.isPresent() ? columns.get() : describe(relation, sourceName);
    Optional<InputColumn> epochTime = epochUnit.isPresent() ? integerTime(input) : Optional.empty();
    if (epochTime.isPresent()) {
      EpochTime conversion = new EpochTime(epochTime.get(), epochUnit.get());
      relation = conversion.relation(relation);
      input = conversion.converted(input);
    }
    Optional<String> insertionTime = contract.ingestTimeColumn();
    insertionTimesGiven |=
        insertionTime.isPresent()
            && input.stream()
                .anyMatch(column -> column.name().equalsIgnoreCase(insertionTime.get()));
    String select = SchemaAlignment.selectList(contract, input, sourceName, ingestMicros, casting);
    requireUnchanged(relation, sourceName, SchemaAlignment.narrowings(contract, input, casting));
    requireUnsigned(relation, sourceName, SchemaAlignment.unsignedInputs(contract, input, casting));
    long firstRow = stagedRows;
    try {
      connection.execute("INSERT INTO " + stageTable + " SELECT " + select + " FROM " + relation);
    } catch (QueryFailedException e) {
      throw new dev.timelake.ValidationException(
          "Cannot append to "
              + contract.name()
              + ": cannot read "
              + sourceName
              + ": "
              + firstLine(e.getMessage()),
          e);
    }
    countAndCheckRequired(firstRow, sourceName);
  }

  /** The input column going into the table's time column, when it holds integers. */
  private Optional<InputColumn> integerTime(List<InputColumn> input) {
    Optional<Column> time = contract.timeColumn().map(contract::column);
    return input.stream()
        .filter(
            source ->
                time.isPresent()
                    && source.name().equalsIgnoreCase(time.get().name())
                    && SchemaAlignment.isIntegerTime(time.get(), source))
        .findFirst();
  }

  /**
   * Fails naming the first row whose number a narrowing cast would change or not hold (5000000000
   * into INTEGER, 1.5 into INTEGER, 2^53 + 1 into DOUBLE), before anything is staged.
   */
  private void requireUnchanged(
      String relation, String sourceName, List<SchemaAlignment.Narrowing> narrowings) {
    if (narrowings.isEmpty()) {
      return;
    }
    List<ValueCheck> checks = new ArrayList<>();
    for (SchemaAlignment.Narrowing narrowing : narrowings) {
      checks.add(
          new ValueCheck(
              narrowing.source().name(), narrowing.column().type().sql(), narrowing.inputType()));
    }
    Optional<BadValue> bad = firstBadValue(relation, checks);
    if (bad.isPresent()) {
      BadValue value = bad.get();
      SchemaAlignment.Narrowing narrowing = narrowings.get(checks.indexOf(value.check()));
      String column = narrowing.column().name();
      if (narrowing.integerFromFile()) {
        throw SchemaAlignment.rejected(
            contract,
            "row %d of %s, column %s: %s is not exact as %s, which holds integers exactly up to"
                + " %s in magnitude (store the column as BIGINT, or cast the input to %s to accept"
                + " the rounding)",
            value.row(),
            sourceName,
            column,
            value.value(),
            value.check().type(),
            value.check().type().equals("FLOAT") ? "2^24 (16777216)" : "2^53 (9007199254740992)",
            value.check().type());
      }
      throw SchemaAlignment.rejected(
          contract,
          "row %d of %s, column %s: %s %s %s (cast the value, or change the column type)",
          value.row(),
          sourceName,
          column,
          value.value(),
          value.fits() ? "would change as" : "does not fit in",
          value.check().type());
    }
  }

  /**
   * Fails naming the first row whose value of a UBIGINT column is not an unsigned 64-bit integer
   * (negative, above 2^64 − 1, not a number), before anything is staged. Fractions are the
   * narrowing check's.
   */
  private void requireUnsigned(String relation, String sourceName, List<InputColumn> inputs) {
    for (InputColumn input : inputs) {
      String value = SqlText.identifier(input.name());
      String whole = "TRY_CAST(" + value + " AS HUGEINT)";
      List<List<Object>> bad =
          connection.rows(
              "SELECT __tl_row, CAST("
                  + value
                  + " AS VARCHAR) FROM (SELECT row_number() OVER () AS __tl_row, * FROM "
                  + relation
                  + ") WHERE "
                  + value
                  + " IS NOT NULL AND ("
                  + whole
                  + " IS NULL OR "
                  + whole
                  + " < 0 OR "
                  + whole
                  + " > 18446744073709551615) ORDER BY __tl_row LIMIT 1");
      if (!bad.isEmpty()) {
        throw SchemaAlignment.rejected(
            contract,
            "row %s of %s, column %s: %s is not a UBIGINT (a whole number from 0 to"
                + " 18446744073709551615)",
            bad.get(0).get(0),
            sourceName,
            input.name(),
            bad.get(0).get(1));
      }
    }
  }

  private List<InputColumn> describe(String relation, String sourceName) {
    try {
      List<InputColumn> columns = new ArrayList<>();
      for (List<Object> row : connection.rows("DESCRIBE SELECT * FROM " + relation)) {
        columns.add(new InputColumn((String) row.get(0), (String) row.get(1)));
      }
      return columns;
    } catch (QueryFailedException e) {
      throw new dev.timelake.ValidationException(
          "Cannot append to "
              + contract.name()
              + ": cannot read "
              + sourceName
              + ": "
              + firstLine(e.getMessage()),
          e);
    }
  }

  /**
   * Counts the staged rows, and fails naming the first row of this source with NULL in a required
   * column. Rows are numbered from the stage's first rowid, which is not 0 when the connection is
   * inside a transaction.
   */
  private void countAndCheckRequired(long firstRow, String sourceName) {
    List<Column> required = contract.columns().stream().filter(c -> !c.isNullable()).toList();
    if (required.isEmpty()) {
      stagedRows = count();
      return;
    }
    // One statement counts the stage and finds the first NULL of each required column.
    List<String> probes = new ArrayList<>();
    probes.add("(SELECT count(*) FROM " + stageTable + ")");
    for (Column column : required) {
      probes.add(
          "min(CASE WHEN " + SqlText.identifier(column.name()) + " IS NULL THEN __tl_n END)");
    }
    List<Object> found =
        connection
            .rows(
                "SELECT "
                    + String.join(", ", probes)
                    + " FROM (SELECT *, rowid - (SELECT min(rowid) FROM "
                    + stageTable
                    + ") AS __tl_n FROM "
                    + stageTable
                    + ") WHERE __tl_n >= "
                    + firstRow)
            .get(0);
    stagedRows = ((Number) found.get(0)).longValue();
    for (int i = 0; i < required.size(); i++) {
      if (found.get(i + 1) != null) {
        long row = ((Number) found.get(i + 1)).longValue() - firstRow + 1;
        throw SchemaAlignment.rejected(
            contract,
            "column '%s' is null in row %d of %s",
            required.get(i).name(),
            row,
            sourceName);
      }
    }
  }

  private void requireReadable(Path file) {
    if (!Files.isReadable(file)) {
      throw TimelakeException.validation(
          "Cannot append to %s: file %s does not exist or cannot be read", contract.name(), file);
    }
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }

  @Override
  public void close() {
    connection.execute("DROP TABLE IF EXISTS " + stageTable);
  }
}

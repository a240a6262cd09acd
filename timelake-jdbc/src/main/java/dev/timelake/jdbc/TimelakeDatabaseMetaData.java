package dev.timelake.jdbc;

import dev.timelake.Column;
import dev.timelake.QueryResult;
import dev.timelake.Table;
import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlText;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The warehouse as JDBC tools browse it: Timelake namespaces are schemas (no catalogs), tables are
 * of type {@code TABLE}, and their columns carry the JDBC types DuckDB reports for them. The rest
 * answers "not supported" or with empty results ({@link MetaDataDefaults}).
 */
final class TimelakeDatabaseMetaData extends MetaDataDefaults implements AutoCloseable {
  private static final List<MetaRows.Column> TABLES =
      columns(
          "TABLE_CAT",
          "TABLE_SCHEM",
          "TABLE_NAME",
          "TABLE_TYPE",
          "REMARKS",
          "TYPE_CAT",
          "TYPE_SCHEM",
          "TYPE_NAME",
          "SELF_REFERENCING_COL_NAME",
          "REF_GENERATION");

  private static final List<MetaRows.Column> COLUMNS =
      List.of(
          text("TABLE_CAT"),
          text("TABLE_SCHEM"),
          text("TABLE_NAME"),
          text("COLUMN_NAME"),
          number("DATA_TYPE"),
          text("TYPE_NAME"),
          number("COLUMN_SIZE"),
          number("BUFFER_LENGTH"),
          number("DECIMAL_DIGITS"),
          number("NUM_PREC_RADIX"),
          number("NULLABLE"),
          text("REMARKS"),
          text("COLUMN_DEF"),
          number("SQL_DATA_TYPE"),
          number("SQL_DATETIME_SUB"),
          number("CHAR_OCTET_LENGTH"),
          number("ORDINAL_POSITION"),
          text("IS_NULLABLE"),
          text("SCOPE_CATALOG"),
          text("SCOPE_SCHEMA"),
          text("SCOPE_TABLE"),
          new MetaRows.Column("SOURCE_DATA_TYPE", "SMALLINT"),
          text("IS_AUTOINCREMENT"),
          text("IS_GENERATEDCOLUMN"));

  private final TimelakeConnection connection;
  private final MetaRows rows = new MetaRows();

  TimelakeDatabaseMetaData(TimelakeConnection connection) {
    this.connection = connection;
  }

  private static List<MetaRows.Column> columns(String... names) {
    return Arrays.stream(names).map(TimelakeDatabaseMetaData::text).toList();
  }

  private static MetaRows.Column text(String name) {
    return new MetaRows.Column(name, "VARCHAR");
  }

  private static MetaRows.Column number(String name) {
    return new MetaRows.Column(name, "INTEGER");
  }

  @Override
  ResultSet empty() throws SQLException {
    return rows.of(List.of(text("EMPTY")), List.of());
  }

  @Override
  public void close() throws SQLException {
    rows.close();
  }

  /** The tables whose namespace and name match the JDBC patterns, sorted. */
  private List<TableName> tables(String schemaPattern, String tablePattern) throws SQLException {
    Pattern schema = like(schemaPattern);
    Pattern table = like(tablePattern);
    List<TableName> matching = new ArrayList<>();
    try {
      for (TableName name : connection.lake().tables()) {
        if (schema.matcher(name.namespace()).matches() && table.matcher(name.name()).matches()) {
          matching.add(name);
        }
      }
    } catch (TimelakeException e) {
      throw Errors.of(e);
    }
    matching.sort(java.util.Comparator.comparing(TableName::toString));
    return matching;
  }

  /** A JDBC LIKE pattern ({@code %}, {@code _}, escape {@code \}) as a regex; null matches all. */
  static Pattern like(String pattern) {
    if (pattern == null) {
      return Pattern.compile("(?s).*");
    }
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
  }

  @Override
  public ResultSet getTables(
      String catalog, String schemaPattern, String tableNamePattern, String[] types)
      throws SQLException {
    boolean tablesWanted =
        types == null
            || Arrays.stream(types).anyMatch(t -> t != null && t.equalsIgnoreCase("TABLE"));
    List<List<Object>> found = new ArrayList<>();
    if (tablesWanted && (catalog == null || catalog.isEmpty())) {
      for (TableName name : tables(schemaPattern, tableNamePattern)) {
        found.add(
            Arrays.asList(
                null, name.namespace(), name.name(), "TABLE", null, null, null, null, null, null));
      }
    }
    return rows.of(TABLES, found);
  }

  @Override
  public ResultSet getColumns(
      String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
      throws SQLException {
    Pattern columnPattern = like(columnNamePattern);
    List<List<Object>> found = new ArrayList<>();
    if (catalog == null || catalog.isEmpty()) {
      for (TableName name : tables(schemaPattern, tableNamePattern)) {
        addColumns(name, columnPattern, found);
      }
    }
    return rows.of(COLUMNS, found);
  }

  /** The table's columns with the JDBC types DuckDB gives their values. */
  private void addColumns(TableName name, Pattern columnPattern, List<List<Object>> found)
      throws SQLException {
    List<Column> declared;
    try {
      Table table = connection.lake().table(name);
      declared = table.columns();
    } catch (TimelakeException e) {
      throw Errors.of(e);
    }
    try (QueryResult result =
        connection.run(
            "SELECT * FROM " + SqlText.qualified(name.namespace(), name.name()) + " LIMIT 0")) {
      ResultSetMetaData types = result.resultSet().getMetaData();
      for (int i = 1; i <= types.getColumnCount(); i++) {
        String column = types.getColumnLabel(i);
        if (!columnPattern.matcher(column).matches()) {
          continue;
        }
        boolean nullable =
            declared.stream()
                .filter(c -> c.name().equalsIgnoreCase(column))
                .findFirst()
                .map(Column::isNullable)
                .orElse(true);
        found.add(
            Arrays.asList(
                null,
                name.namespace(),
                name.name(),
                column,
                types.getColumnType(i),
                types.getColumnTypeName(i),
                types.getPrecision(i) > 0 ? types.getPrecision(i) : null,
                null,
                types.getScale(i) > 0 ? types.getScale(i) : null,
                10,
                nullable ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
                null,
                null,
                null,
                null,
                null,
                i,
                nullable ? "YES" : "NO",
                null,
                null,
                null,
                null,
                "NO",
                "NO"));
      }
    }
  }

  @Override
  public ResultSet getSchemas() throws SQLException {
    return getSchemas(null, null);
  }

  @Override
  public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
    Pattern schema = like(schemaPattern);
    TreeSet<String> namespaces = new TreeSet<>();
    try {
      for (TableName name : connection.lake().tables()) {
        if (schema.matcher(name.namespace()).matches()) {
          namespaces.add(name.namespace());
        }
      }
    } catch (TimelakeException e) {
      throw Errors.of(e);
    }
    List<List<Object>> found = new ArrayList<>();
    namespaces.forEach(n -> found.add(Arrays.asList(n, null)));
    return rows.of(columns("TABLE_SCHEM", "TABLE_CATALOG"), found);
  }

  @Override
  public ResultSet getCatalogs() throws SQLException {
    return rows.of(columns("TABLE_CAT"), List.of());
  }

  @Override
  public ResultSet getTableTypes() throws SQLException {
    return rows.of(columns("TABLE_TYPE"), List.of(List.of("TABLE")));
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public String getURL() {
    return connection.url();
  }

  @Override
  public String getDatabaseProductName() {
    return "Timelake";
  }

  @Override
  public String getDatabaseProductVersion() {
    return TimelakeDriver.MAJOR_VERSION + "." + TimelakeDriver.MINOR_VERSION;
  }

  @Override
  public String getDriverName() {
    return "Timelake JDBC (embedded)";
  }

  @Override
  public String getDriverVersion() {
    return getDatabaseProductVersion();
  }

  @Override
  public int getDriverMajorVersion() {
    return TimelakeDriver.MAJOR_VERSION;
  }

  @Override
  public int getDriverMinorVersion() {
    return TimelakeDriver.MINOR_VERSION;
  }

  @Override
  public int getDatabaseMajorVersion() {
    return TimelakeDriver.MAJOR_VERSION;
  }

  @Override
  public int getDatabaseMinorVersion() {
    return TimelakeDriver.MINOR_VERSION;
  }

  @Override
  public int getJDBCMajorVersion() {
    return 4;
  }

  @Override
  public int getJDBCMinorVersion() {
    return 2;
  }

  @Override
  public String getIdentifierQuoteString() {
    return "\"";
  }

  @Override
  public String getSearchStringEscape() {
    return "\\";
  }

  @Override
  public String getCatalogSeparator() {
    return ".";
  }

  @Override
  public String getSchemaTerm() {
    return "namespace";
  }

  @Override
  public String getCatalogTerm() {
    return "catalog";
  }

  @Override
  public String getProcedureTerm() {
    return "procedure";
  }

  @Override
  public boolean supportsSchemasInDataManipulation() {
    return true;
  }

  @Override
  public boolean supportsSchemasInTableDefinitions() {
    return true;
  }

  @Override
  public boolean supportsSchemasInProcedureCalls() {
    return true;
  }

  @Override
  public boolean allTablesAreSelectable() {
    return true;
  }

  @Override
  public boolean supportsBatchUpdates() {
    return true;
  }

  @Override
  public boolean supportsResultSetType(int type) {
    return type == ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public boolean supportsResultSetConcurrency(int type, int concurrency) {
    return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public int getDefaultTransactionIsolation() {
    return Connection.TRANSACTION_NONE;
  }

  @Override
  public boolean supportsTransactionIsolationLevel(int level) {
    return level == Connection.TRANSACTION_NONE;
  }

  @Override
  public boolean storesMixedCaseIdentifiers() {
    return true;
  }

  @Override
  public boolean storesMixedCaseQuotedIdentifiers() {
    return true;
  }

  @Override
  public boolean nullsAreSortedAtEnd() {
    return true;
  }

  @Override
  public boolean usesLocalFiles() {
    return true;
  }

  @Override
  public boolean supportsMixedCaseQuotedIdentifiers() {
    return false;
  }

  @Override
  public boolean supportsColumnAliasing() {
    return true;
  }

  @Override
  public boolean supportsGroupBy() {
    return true;
  }

  @Override
  public boolean supportsOrderByUnrelated() {
    return true;
  }

  @Override
  public boolean supportsLikeEscapeClause() {
    return true;
  }

  @Override
  public boolean supportsOuterJoins() {
    return true;
  }

  @Override
  public boolean supportsFullOuterJoins() {
    return true;
  }

  @Override
  public boolean supportsSubqueriesInIns() {
    return true;
  }

  @Override
  public RowIdLifetime getRowIdLifetime() {
    return RowIdLifetime.ROWID_UNSUPPORTED;
  }

  @Override
  public String getUserName() {
    return "";
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return Results.unwrap(this, type, "Timelake's metadata");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }
}

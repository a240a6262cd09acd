package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import net.sf.jsqlparser.statement.insert.Insert;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An INSERT of constants read from its tokens gives the nodes JSqlParser's parse gives (table,
 * columns, every row and value, printed alike); any other statement is left to the parser.
 */
class ConstantInsertTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "INSERT INTO iot.readings VALUES ('pump-1', '2026-01-01 10:00:00+00', 1.5)",
        "insert into iot.readings values ('a', '2026-01-01', -2), ('b', '2026-01-02', +3.25);",
        "INSERT INTO \"My ns\".\"Readings\" (\"Tag\", time, value) VALUES ('it''s', NULL, .5)",
        "INSERT INTO iot.r VALUES ('t1', CAST('2023-11-14 22:13:20+00' AS TIMESTAMPTZ),"
            + " CAST('0.0' AS DOUBLE))",
        "INSERT INTO iot.r VALUES ('x', '2026-01-01'::TIMESTAMPTZ, TRUE, FALSE, CAST(NULL AS"
            + " DOUBLE))",
        "INSERT INTO iot.r VALUES (TIMESTAMPTZ '2026-01-01 00:00:00+00', TIMESTAMP '2026-01-01',"
            + " DATE '2026-01-01', 9223372036854775808)",
        "INSERT INTO iot.r VALUES ('only')",
        "INSERT INTO iot.r (a) VALUES ('x'), ('y'), ('z')"
      })
  void readsWhatTheParserReads(String sql) throws Exception {
    ConstantInsert read = ConstantInsert.read(sql).orElseThrow();
    Insert parsed = (Insert) dev.timelake.engine.StatementParser.parse(sql);
    assertThat(read.table().getFullyQualifiedName())
        .isEqualTo(parsed.getTable().getFullyQualifiedName());
    assertThat(read.columns())
        .extracting(net.sf.jsqlparser.schema.Column::getColumnName)
        .containsExactlyElementsOf(
            parsed.getColumns() == null
                ? java.util.List.of()
                : parsed.getColumns().stream()
                    .map(net.sf.jsqlparser.schema.Column::getColumnName)
                    .toList());
    assertThat(read.values().toString()).isEqualTo(parsed.getSelect().toString());
    assertThat(read.values().getExpressions().getClass())
        .isEqualTo(
            ((net.sf.jsqlparser.statement.select.Values) parsed.getSelect())
                .getExpressions()
                .getClass());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "INSERT INTO iot.r SELECT * FROM iot.s",
        "INSERT INTO r VALUES (1)",
        "INSERT INTO iot.r VALUES (now())",
        "INSERT INTO iot.r VALUES (1 + 2)",
        "INSERT INTO iot.r VALUES (E'a\\nb')",
        "INSERT INTO iot.r VALUES ($$x$$)",
        "INSERT INTO iot.r VALUES (1e5)",
        "INSERT INTO iot.r VALUES (CAST(1 AS DOUBLE))",
        "INSERT INTO iot.r VALUES (CAST('1' AS DOUBLE PRECISION))",
        "INSERT INTO iot.r VALUES (CAST('1' AS VARCHAR(3)))",
        "INSERT INTO iot.r VALUES ('x') RETURNING *",
        "INSERT INTO iot.r VALUES ('x'); INSERT INTO iot.r VALUES ('y')",
        "INSERT OR REPLACE INTO iot.r VALUES ('x')",
        "INSERT INTO iot.r VALUES ('x'",
        "INSERT INTO iot.r BY NAME VALUES ('x')",
        "SELECT 1"
      })
  void leavesAnythingElseToTheParser(String sql) {
    assertThat(ConstantInsert.read(sql)).isEqualTo(Optional.empty());
  }
}

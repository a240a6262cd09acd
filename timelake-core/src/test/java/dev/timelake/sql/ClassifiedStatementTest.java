package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TableName;
import dev.timelake.TransactionState;
import dev.timelake.ValidationException;
import dev.timelake.rollup.RollupStatement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The front door sorts each statement by its tokens before anything of it runs: Timelake's own
 * statements by their leading words (never by words inside strings, quoted names or comments),
 * everything else for JSqlParser and DuckDB.
 */
class ClassifiedStatementTest extends WithLakeSession {

  @Test
  void timelakeStatementsAreSortedByTheirLeadingWords() {
    assertThat(ClassifiedStatement.of("BEGIN;"))
        .isEqualTo(new ClassifiedStatement.Transaction("BEGIN", TransactionControl.BEGIN));
    assertThat(ClassifiedStatement.of("PREPARE TRANSACTION 'x'"))
        .isInstanceOf(ClassifiedStatement.Transaction.class);
    assertThat(ClassifiedStatement.of("PREPARE q AS SELECT 1"))
        .isInstanceOf(ClassifiedStatement.Prepared.class);
    assertThat(ClassifiedStatement.of("SET statement_timeout = '5s'"))
        .isInstanceOf(ClassifiedStatement.PostgresSetting.class);
    assertThat(ClassifiedStatement.of("SHOW timelake.rollup_routing"))
        .isEqualTo(
            new ClassifiedStatement.TimelakeSetting(
                "SHOW timelake.rollup_routing", false, "rollup_routing"));
    assertThat(ClassifiedStatement.of("refresh materialized rollup iot.r_1d"))
        .isInstanceOf(ClassifiedStatement.Rollup.class);
    assertThat(ClassifiedStatement.of("EXPLAIN REFRESH MATERIALIZED ROLLUP iot.r_1d"))
        .isInstanceOf(ClassifiedStatement.ExplainRefresh.class);
    assertThat(ClassifiedStatement.of("OPTIMIZE TABLE \"iot\".\"r\" ;"))
        .isEqualTo(
            new ClassifiedStatement.Optimize(
                "OPTIMIZE TABLE \"iot\".\"r\"", new TableName("iot", "r")));
    assertThat(ClassifiedStatement.of("CALL timelake.rollback('iot.r', 3)"))
        .isInstanceOf(ClassifiedStatement.Rollback.class);
    assertThat(ClassifiedStatement.of("ALTER TABLE iot.r RENAME COLUMN x TO y"))
        .isInstanceOf(ClassifiedStatement.SchemaAlteration.class);
    assertThat(ClassifiedStatement.of("CREATE VIEW iot.v AS SELECT * FROM iot.r"))
        .isInstanceOf(ClassifiedStatement.ViewCreation.class);
    assertThat(ClassifiedStatement.of("CREATE TABLE iot.c AS SELECT * FROM iot.r"))
        .isInstanceOf(ClassifiedStatement.TableCreationAs.class);
    assertThat(ClassifiedStatement.of("SELECT * FROM pg_catalog.pg_class"))
        .isInstanceOf(ClassifiedStatement.CatalogQuery.class);
  }

  @Test
  void everythingElseIsSqlWithWhatItsParsingNeedsToKnow() {
    assertThat(ClassifiedStatement.of("SELECT 7 // 2;;"))
        .isEqualTo(new ClassifiedStatement.Sql("SELECT 7 // 2", true, false));
    assertThat(ClassifiedStatement.of("SELECT '7 // 2' -- a comment"))
        .isEqualTo(new ClassifiedStatement.Sql("SELECT '7 // 2'", false, false));
    assertThat(ClassifiedStatement.of("SELECT current_setting('timelake.rollup_routing')"))
        .isEqualTo(
            new ClassifiedStatement.Sql(
                "SELECT current_setting('timelake.rollup_routing')", false, true));
    assertThat(ClassifiedStatement.of("SELECT 'OPTIMIZE t', 'MATERIALIZED ROLLUP'"))
        .isInstanceOf(ClassifiedStatement.Sql.class);
    assertThat(ClassifiedStatement.of("SET threads = 1"))
        .isInstanceOf(ClassifiedStatement.Sql.class);
  }

  @Test
  void latestOnIsReadAsTheQualifyItMeansOutsideStringsAndComments() {
    assertThat(
            ClassifiedStatement.of("SELECT * FROM t LATEST ON ts PARTITION BY a, \"b\" LIMIT 3;")
                .text())
        .isEqualTo(
            "SELECT * FROM t QUALIFY row_number() OVER (PARTITION BY a, \"b\" ORDER BY ts DESC)"
                + " = 1 LIMIT 3");
    assertThat(
            ClassifiedStatement.of("SELECT 'it''s', x FROM t -- LATEST ON ts PARTITION BY a")
                .text())
        .isEqualTo("SELECT 'it''s', x FROM t");
    assertThat(ClassifiedStatement.of("SELECT 'LATEST ON ts PARTITION BY a'").text())
        .isEqualTo("SELECT 'LATEST ON ts PARTITION BY a'");
  }

  @Test
  void aRollupStatementThatIsNoneOfTheFormsIsRefusedNamingThem() {
    assertThatThrownBy(
            () -> ClassifiedStatement.of("CREATE OR REPLACE MATERIALIZED ROLLUP iot.x AS SELECT 1"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Cannot read rollup statement")
        .hasMessageContaining("REFRESH MATERIALIZED ROLLUP ns.name");
    assertThat(RollupStatement.unreadable("x")).isInstanceOf(ValidationException.class);
  }

  @Test
  void wordsOfTimelakeStatementsInsideStringsRunAsTheQueryTheyAre() {
    assertThat(rows("SELECT 'MATERIALIZED ROLLUP' AS a, 'OPTIMIZE t' AS b"))
        .containsExactly(List.of("MATERIALIZED ROLLUP", "OPTIMIZE t"));
  }

  @Test
  void aPreparedBeginOpensTheSessionsTransactionNotTheEngines() {
    run("PREPARE open_it AS BEGIN");
    run("EXECUTE open_it");
    assertThat(session.transactionState()).isEqualTo(TransactionState.OPEN);
    run("ROLLBACK");
    assertThat(session.transactionState()).isEqualTo(TransactionState.IDLE);
  }

  @Test
  void anUnreadableRollupStatementFailsTheTransactionItIsIn() {
    run("BEGIN");
    assertThatThrownBy(() -> run("DROP MATERIALIZED ROLLUP"))
        .isInstanceOf(ValidationException.class);
    assertThat(session.transactionState()).isEqualTo(TransactionState.FAILED);
    run("ROLLBACK");
  }
}

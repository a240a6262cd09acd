package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The spellings of transaction statements PostgreSQL and DuckDB clients send. */
class TransactionControlTest {
  @Test
  void readsEverySpellingOfBeginCommitAndRollback() {
    for (String begin :
        new String[] {
          "BEGIN",
          "begin;",
          "BEGIN TRANSACTION",
          "BEGIN WORK",
          "START TRANSACTION",
          "BEGIN ISOLATION LEVEL SERIALIZABLE",
          "BEGIN TRANSACTION READ ONLY, ISOLATION LEVEL REPEATABLE READ",
          "START TRANSACTION READ WRITE NOT DEFERRABLE",
          "/* psql */ BEGIN -- now"
        }) {
      assertThat(TransactionControl.of(begin)).as(begin).contains(TransactionControl.BEGIN);
    }
    for (String commit :
        new String[] {"COMMIT", "commit work", "END", "END TRANSACTION;", "COMMIT AND NO CHAIN"}) {
      assertThat(TransactionControl.of(commit)).as(commit).contains(TransactionControl.COMMIT);
    }
    for (String rollback : new String[] {"ROLLBACK", "ABORT", "rollback transaction"}) {
      assertThat(TransactionControl.of(rollback))
          .as(rollback)
          .contains(TransactionControl.ROLLBACK);
    }
  }

  @Test
  void refusesSavepointsTwoPhaseCommitAndChains() {
    for (String unsupported :
        new String[] {
          "SAVEPOINT a",
          "RELEASE SAVEPOINT a",
          "RELEASE a",
          "ROLLBACK TO SAVEPOINT a",
          "ROLLBACK TRANSACTION TO a",
          "PREPARE TRANSACTION 'x'",
          "COMMIT PREPARED 'x'",
          "ROLLBACK PREPARED 'x'",
          "COMMIT AND CHAIN"
        }) {
      assertThat(TransactionControl.of(unsupported))
          .as(unsupported)
          .contains(TransactionControl.UNSUPPORTED);
    }
  }

  @Test
  void otherStatementsAreNotTransactionStatements() {
    for (String other :
        new String[] {
          "SELECT 1",
          "BEGIN; SELECT 1",
          "BEGIN TRANSACTION; ATTACH 'x'",
          "COMMIT; DROP TABLE t",
          "'BEGIN'",
          "PREPARE p AS SELECT 1",
          "END IF",
          "STARTING",
          ""
        }) {
      assertThat(TransactionControl.of(other)).as(other).isEqualTo(Optional.empty());
    }
  }
}

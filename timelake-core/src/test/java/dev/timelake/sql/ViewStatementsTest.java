package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.ClientAccess;
import dev.timelake.Role;
import dev.timelake.Session;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Views over lake tables: the lake's ({@code CREATE VIEW ns.v}) and a session's temporary ones hold
 * their query, which is read where the view is named, with copies removed and at the statement's
 * snapshot, so a view shows rows written after it was created.
 */
class ViewStatementsTest extends WithLakeSession {

  @BeforeEach
  void createTable() {
    run(
        "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 1), ('b', '2026-01-01', 5)");
  }

  @Test
  void aLakeViewReadsTheTableAsItIsWhenQueried() {
    assertThat(message("CREATE VIEW iot.high AS SELECT device, value FROM iot.r WHERE value > 2"))
        .isEqualTo("Created view iot.high");
    run("INSERT INTO iot.r VALUES ('a', '2026-01-01 00:00:00+00', 9), ('c', '2026-01-02', 7)");

    // The copy of ('a', 2026-01-01) replaced the first: the view sees the newest write only.
    assertThat(rows("SELECT * FROM iot.high ORDER BY device"))
        .containsExactly(List.of("a", 9.0), List.of("b", 5.0), List.of("c", 7.0));
    assertThat(
            rows("SELECT h.device FROM iot.high h JOIN iot.r r USING (device) WHERE r.value = 7"))
        .containsExactly(List.of("c"));
    try (Session other = lake.newSession()) {
      assertThat(other.sql("SELECT count(*) FROM iot.high").rows()).containsExactly(List.of(3L));
    }
    assertThat(rows("SHOW TABLES")).contains(List.of("iot", "high", "view"));

    run("CREATE VIEW iot.top AS SELECT max(value) AS top FROM iot.high");
    assertThat(rows("SELECT top FROM iot.top")).containsExactly(List.of(9.0));
    run("CREATE TABLE iot.copy (device VARCHAR, value DOUBLE)");
    run("INSERT INTO iot.copy SELECT * FROM iot.high");
    assertThat(rows("SELECT count(*) FROM iot.copy")).containsExactly(List.of(3L));
  }

  @Test
  void viewsAreCreatedReplacedAndDroppedWithClearRefusals() {
    run("CREATE VIEW iot.v AS SELECT device FROM iot.r");
    assertThatThrownBy(() -> run("CREATE VIEW iot.v AS SELECT 1"))
        .hasMessage("Cannot create view iot.v: it exists; CREATE OR REPLACE VIEW replaces it");
    assertThat(message("CREATE VIEW IF NOT EXISTS iot.v AS SELECT 1"))
        .isEqualTo("View iot.v already exists");
    run("CREATE OR REPLACE VIEW iot.v AS SELECT count(*) AS n FROM iot.r");
    assertThat(rows("SELECT n FROM iot.v")).containsExactly(List.of(2L));
    assertThatThrownBy(() -> run("CREATE VIEW iot.r AS SELECT 1"))
        .hasMessage("Cannot create view iot.r: a table of that name exists");
    assertThatThrownBy(() -> run("CREATE VIEW iot.bad AS SELECT nope FROM iot.r"))
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> run("SELECT * FROM iot.bad")).hasMessageContaining("iot.bad");
    run("CREATE OR REPLACE VIEW iot.v AS SELECT n + 1 AS n FROM iot.v");
    assertThatThrownBy(() -> run("SELECT * FROM iot.v"))
        .hasMessage("Cannot read view iot.v: it names itself through the views it reads");

    assertThat(message("DROP VIEW iot.v")).isEqualTo("Dropped view iot.v");
    assertThatThrownBy(() -> run("DROP VIEW iot.v"))
        .hasMessage("Cannot drop view iot.v: it does not exist");
    assertThat(message("DROP VIEW IF EXISTS iot.v")).isEqualTo("View iot.v does not exist");
    run("BEGIN");
    assertThatThrownBy(() -> run("CREATE VIEW iot.w AS SELECT 1"))
        .hasMessageStartingWith("Cannot run CREATE VIEW iot.w inside a transaction");
    run("ROLLBACK");
  }

  @Test
  void aTemporaryViewIsTheSessionsAndReadsNewRows() {
    run("CREATE TEMP VIEW latest AS SELECT device, max(value) AS top FROM iot.r GROUP BY device");
    run("INSERT INTO iot.r VALUES ('b', '2026-01-03', 50)");
    assertThat(rows("SELECT top FROM latest WHERE device = 'b'")).containsExactly(List.of(50.0));
    try (Session other = lake.newSession()) {
      assertThatThrownBy(() -> other.sql("SELECT * FROM latest")).hasMessageContaining("latest");
    }
    run("DROP VIEW latest");
    assertThatThrownBy(() -> run("SELECT * FROM latest")).hasMessageContaining("latest");
    // A temporary view reading no lake table is DuckDB's own.
    run("CREATE TEMP VIEW one AS SELECT 1 AS x");
    assertThat(rows("SELECT x FROM one")).containsExactly(List.of(1));
  }

  @Test
  void aViewReadsOnlyWhatItsReaderMayRead() {
    run(
        "CREATE TABLE plant.s (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
            + " WITH (time_column = 'time', series_key = 'device')");
    run("CREATE VIEW iot.mixed AS SELECT device FROM plant.s");
    try (Session reader =
        lake.newSession(new ClientAccess("grafana", Role.READ, java.util.Set.of("iot")))) {
      assertThatThrownBy(() -> reader.sql("SELECT * FROM iot.mixed"))
          .hasMessageContaining("grafana");
      assertThatThrownBy(() -> reader.sql("CREATE VIEW iot.mine AS SELECT 1 AS x"))
          .hasMessageContaining("(admin needed)");
      // Nor through the files: the warehouse holds every namespace's.
      String files = warehouse.resolve("plant") + "/**/*.parquet";
      assertThatThrownBy(() -> reader.sql("SELECT count(*) FROM read_parquet('" + files + "')"))
          .isInstanceOf(dev.timelake.AccessDeniedException.class)
          .hasMessage(
              "Cannot run read_parquet(…) for user grafana: a user limited to some namespaces"
                  + " reads their tables, not files by name");
      assertThatThrownBy(
              () ->
                  reader.sql(
                      "SELECT * FROM iot.r WHERE device IN (SELECT file FROM glob('"
                          + files
                          + "'))"))
          .hasMessageStartingWith("Cannot run glob(…) for user grafana");
      assertThatThrownBy(() -> reader.sql("SELECT * FROM '" + warehouse + "/x.parquet'"))
          .hasMessageStartingWith("Cannot run a read of '");
      reader.sql("CREATE TEMP VIEW mine AS SELECT count(*) AS n FROM iot.r").close();
      assertThat(reader.sql("SELECT n FROM mine").rows()).containsExactly(List.of(2L));
    }
  }
}

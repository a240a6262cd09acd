package dev.timelake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded catalog is opened when a statement first needs it, not when the lake opens. */
class LazyCatalogTest {
  @TempDir Path warehouse;

  @Test
  void aStatementWithoutTablesLeavesTheCatalogUnopened() {
    Path file = warehouse.resolve(Catalogs.EMBEDDED_CATALOG_FILE);
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      try (QueryResult result = session.sql("SELECT 1 AS one")) {
        assertThat(result.rows()).containsExactly(List.of(1));
      }
      assertThat(file).doesNotExist();

      session.sql("CREATE TABLE iot.r (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)").close();
      assertThat(file).exists();
      assertThat(lake.tables()).extracting(Object::toString).containsExactly("iot.r");
    }
    try (Lake again = Lake.open(warehouse)) {
      assertThat(again.tables()).extracting(Object::toString).containsExactly("iot.r");
    }
  }

  @Test
  void aClosedLakesCatalogIsNotOpenedAgain() {
    Lake lake = Lake.open(warehouse);
    lake.close();
    assertThatThrownBy(lake::tables).hasMessageContaining("closed");
    assertThat(warehouse.resolve(Catalogs.EMBEDDED_CATALOG_FILE)).doesNotExist();
  }
}

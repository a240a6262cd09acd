package dev.timelake;

import dev.timelake.catalog.Catalogs;
import dev.timelake.catalog.LakeCatalog;
import dev.timelake.table.TableContract;
import java.nio.file.Path;
import org.apache.iceberg.catalog.Catalog;

/** Table contracts as the catalog loads them, for tests of what is planned from a contract. */
public final class TestContracts {
  private TestContracts() {}

  /** The contract of table {@code name} created in {@code warehouse} with {@code definition}. */
  public static TableContract created(Path warehouse, String name, String definition) {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      session.sql("CREATE TABLE " + name + " " + definition).close();
    }
    Catalog iceberg = Catalogs.openEmbedded(warehouse);
    try {
      return new LakeCatalog(iceberg, "test", warehouse.resolve(".tmp"))
          .require(TableName.parse(name))
          .contract();
    } finally {
      if (iceberg instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }
}

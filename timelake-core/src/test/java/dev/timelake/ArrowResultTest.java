package dev.timelake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrowResultTest {
  @TempDir Path warehouse;

  @Test
  void exportsQueryRowsAsArrowBatches() throws Exception {
    try (Lake lake = Lake.open(warehouse)) {
      Table table = lake.createTable(TestTables.readings("iot.readings").build());
      Instant t = Instant.parse("2026-01-01T00:00:00Z");
      table.newAppend().row("a", t, 1.0).row("a", t.plusSeconds(1), 2.0).row("b", t, 3.0).commit();
      try (Session session = lake.newSession();
          QueryResult result =
              session.sql(
                  "SELECT device, count(*) AS n FROM iot.readings GROUP BY device ORDER BY device");
          RootAllocator allocator = new RootAllocator();
          ArrowReader reader = result.arrow(allocator, 1024)) {
        StringBuilder rows = new StringBuilder();
        while (reader.loadNextBatch()) {
          VarCharVector device = (VarCharVector) reader.getVectorSchemaRoot().getVector("device");
          BigIntVector count = (BigIntVector) reader.getVectorSchemaRoot().getVector("n");
          for (int i = 0; i < device.getValueCount(); i++) {
            rows.append(device.getObject(i)).append('=').append(count.get(i)).append(';');
          }
        }
        assertThat(rows.toString()).isEqualTo("a=2;b=1;");
      }
    }
  }
}

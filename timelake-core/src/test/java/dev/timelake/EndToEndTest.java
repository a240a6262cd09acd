package dev.timelake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndToEndTest {
  @TempDir Path warehouse;

  @Test
  void createsAppendsAndQueries() {
    try (Lake lake = Lake.open(warehouse)) {
      Table table =
          lake.createTable(
              TableDefinition.builder("iot.readings")
                  .column("device", ColumnType.VARCHAR)
                  .column("time", ColumnType.TIMESTAMPTZ)
                  .column("value", ColumnType.DOUBLE)
                  .timeColumn("time")
                  .seriesKey("device")
                  .build());
      AppendResult first =
          table
              .newAppend()
              .row("a", Instant.parse("2026-01-01T10:00:00Z"), 1.0)
              .row("a", Instant.parse("2026-01-02T10:00:00Z"), 2.0)
              .row("b", Instant.parse("2026-01-01T10:00:00Z"), 3.0)
              .commit();
      assertThat(first.rows()).isEqualTo(3);
      assertThat(first.files()).isEqualTo(2);
      table.newAppend().row("a", Instant.parse("2026-01-01T10:00:00Z"), 10.0).commit();
      try (Session session = lake.newSession();
          QueryResult result =
              session.sql(
                  "SELECT device, time_bucket(INTERVAL '1 day', time) AS day, sum(value) FROM"
                      + " iot.readings WHERE time >= '2026-01-01' GROUP BY ALL ORDER BY ALL")) {
        List<List<Object>> rows = result.rows();
        System.out.println(rows);
        System.out.println(result.explanation());
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0).get(2)).isEqualTo(10.0);
      }
    }
  }
}

package dev.timelake.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TimelakeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.ParquetUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statistics from a Parquet footer read without Hadoop, and files that are not Parquet. */
class ParquetFooterTest {
  @TempDir Path directory;

  @Test
  void metricsEqualThoseOfParquetsOwnReader() throws Exception {
    Path file = directory.resolve("data.parquet");
    try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = duckdb.createStatement()) {
      statement.execute(
          "COPY (SELECT 'tag-' || (i % 7) AS tag, TIMESTAMPTZ '2026-01-01 00:00:00+00'"
              + " + to_seconds(i) AS time, CASE WHEN i % 5 = 0 THEN NULL ELSE i / 3.0 END AS value"
              + " FROM range(10000) t(i)) TO '"
              + file
              + "' (FORMAT parquet, FIELD_IDS {tag: 1, time: 2, value: 3}, ROW_GROUP_SIZE 3000)");
    }
    InputFile input = org.apache.iceberg.Files.localInput(file.toFile());
    Metrics expected = ParquetUtil.fileMetrics(input, MetricsConfig.getDefault());
    Metrics actual = ParquetFooter.metrics(input, MetricsConfig.getDefault());
    assertThat(actual.recordCount()).isEqualTo(10_000L).isEqualTo(expected.recordCount());
    assertThat(actual.columnSizes()).isEqualTo(expected.columnSizes());
    assertThat(actual.valueCounts()).isEqualTo(expected.valueCounts());
    assertThat(actual.nullValueCounts())
        .isEqualTo(expected.nullValueCounts())
        .containsEntry(3, 2000L);
    assertThat(actual.lowerBounds()).isEqualTo(expected.lowerBounds()).containsKeys(1, 2, 3);
    assertThat(actual.upperBounds()).isEqualTo(expected.upperBounds());
  }

  @Test
  void refusesAFileTooShortOrWithoutTheClosingMagic() throws Exception {
    Path tiny = Files.write(directory.resolve("tiny.parquet"), new byte[] {'P', 'A', 'R', '1'});
    assertThatThrownBy(() -> metrics(tiny))
        .isInstanceOf(TimelakeException.class)
        .hasMessage("%s is not a Parquet file: it has 4 bytes", tiny);
    Path csv = Files.writeString(directory.resolve("data.csv"), "tag,time,value\na,2026-01-01,1\n");
    assertThatThrownBy(() -> metrics(csv))
        .isInstanceOf(TimelakeException.class)
        .hasMessage("%s is not a Parquet file: it does not end with PAR1", csv);
  }

  @Test
  void refusesAFooterLengthBeyondTheFileBeforeAllocatingIt() throws Exception {
    ByteBuffer bytes = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
    bytes.put("PAR1".getBytes(StandardCharsets.US_ASCII)).put(new byte[8]);
    bytes.putInt(Integer.MAX_VALUE).put("PAR1".getBytes(StandardCharsets.US_ASCII));
    Path lying = Files.write(directory.resolve("lying.parquet"), bytes.array());
    assertThatThrownBy(() -> metrics(lying))
        .isInstanceOf(TimelakeException.class)
        .hasMessage(
            "%s is not a Parquet file: its footer length 2147483647 exceeds the file's 20 bytes",
            lying);
  }

  private static Metrics metrics(Path file) {
    return ParquetFooter.metrics(
        org.apache.iceberg.Files.localInput(file.toFile()), MetricsConfig.getDefault());
  }
}

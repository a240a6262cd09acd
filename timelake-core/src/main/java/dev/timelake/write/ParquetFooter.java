package dev.timelake.write;

import dev.timelake.TimelakeException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Iceberg's column statistics of a Parquet file, from its footer alone. Parquet's own file reader
 * needs Hadoop's classes, which the rest of Timelake does not; reading the footer directly keeps
 * Hadoop out of every write.
 */
final class ParquetFooter {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  // footer length (4 bytes, little endian) and the closing magic
  private static final int TAIL = 8;

  private ParquetFooter() {}

  /** The metrics of {@code file} as {@code config} asks for them. */
  static Metrics metrics(InputFile file, MetricsConfig config) {
    return ParquetUtil.footerMetrics(read(file), Stream.empty(), config);
  }

  static ParquetMetadata read(InputFile file) {
    long length = file.getLength();
    if (length < MAGIC.length + TAIL) {
      throw notParquet(file, "it has " + length + " bytes");
    }
    try (SeekableInputStream in = file.newStream()) {
      byte[] tail = readAt(in, length - TAIL, TAIL);
      if (!java.util.Arrays.equals(tail, 4, 8, MAGIC, 0, 4)) {
        throw notParquet(file, "it does not end with PAR1");
      }
      long footerLength =
          Integer.toUnsignedLong(
              ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
      // Checked before anything is allocated from it.
      if (footerLength > length - MAGIC.length - TAIL) {
        throw notParquet(
            file, "its footer length " + footerLength + " exceeds the file's " + length + " bytes");
      }
      byte[] footer = readAt(in, length - TAIL - footerLength, (int) footerLength);
      FileMetaData metadata = Util.readFileMetaData(new ByteArrayInputStream(footer));
      return new ParquetMetadataConverter().fromParquetMetadata(metadata);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the Parquet footer of " + file.location(), e);
    }
  }

  private static byte[] readAt(SeekableInputStream in, long position, int length)
      throws IOException {
    byte[] bytes = new byte[length];
    in.seek(position);
    int read = 0;
    while (read < length) {
      int n = in.read(bytes, read, length - read);
      if (n < 0) {
        throw new IOException("unexpected end of file at " + (position + read));
      }
      read += n;
    }
    return bytes;
  }

  private static TimelakeException notParquet(InputFile file, String why) {
    return TimelakeException.validation("%s is not a Parquet file: %s", file.location(), why);
  }
}

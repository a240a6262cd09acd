package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/**
 * Damaged remote-write and OTLP bodies (bytes flipped, cut short, lengths enlarged) are refused
 * with the format's own error or read as some points, never anything else: no exception of the JDK,
 * no allocation of what a damaged length claims. {@code -Dtests.seed=<hex>} replays a run.
 */
class MetricsBodyFuzzTest {
  private static byte[] message(int field, byte[]... parts) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    for (byte[] part : parts) {
      out.writeByteArray(field, part);
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static byte[] strings(String... fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    for (int i = 0; i < fields.length; i++) {
      out.writeString(i + 1, fields[i]);
    }
    out.flush();
    return bytes.toByteArray();
  }

  /** A remote-write request of one series with two samples. */
  private static byte[] remoteWrite() throws IOException {
    return withTimestamp(1_767_225_600_000L);
  }

  private static byte[] withTimestamp(long millis) throws IOException {
    ByteArrayOutputStream sample = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(sample);
    out.writeDouble(1, 1.5);
    out.writeInt64(2, millis);
    out.flush();
    ByteArrayOutputStream series = new ByteArrayOutputStream();
    CodedOutputStream seriesOut = CodedOutputStream.newInstance(series);
    seriesOut.writeByteArray(1, strings("__name__", "up"));
    seriesOut.writeByteArray(1, strings("job", "a"));
    seriesOut.writeByteArray(2, sample.toByteArray());
    seriesOut.writeByteArray(2, sample.toByteArray());
    seriesOut.flush();
    return message(1, series.toByteArray());
  }

  /** An OTLP request with a gauge point and a histogram point. */
  private static byte[] otlp() throws IOException {
    ByteArrayOutputStream number = new ByteArrayOutputStream();
    CodedOutputStream n = CodedOutputStream.newInstance(number);
    n.writeFixed64(3, 1_767_225_600_000_000_000L);
    n.writeDouble(4, 2.5);
    n.writeByteArray(7, keyValue());
    n.flush();
    ByteArrayOutputStream histogram = new ByteArrayOutputStream();
    CodedOutputStream h = CodedOutputStream.newInstance(histogram);
    h.writeFixed64(3, 1_767_225_600_000_000_000L);
    h.writeFixed64(4, 3);
    h.writeDouble(5, 7.5);
    h.writeByteArray(6, packed(1, 2));
    h.writeByteArray(7, packed(Double.doubleToLongBits(0.5)));
    h.flush();
    ByteArrayOutputStream gaugeMetric = new ByteArrayOutputStream();
    CodedOutputStream g = CodedOutputStream.newInstance(gaugeMetric);
    g.writeString(1, "pressure");
    g.writeByteArray(5, message(1, number.toByteArray()));
    g.flush();
    ByteArrayOutputStream histogramMetric = new ByteArrayOutputStream();
    CodedOutputStream hm = CodedOutputStream.newInstance(histogramMetric);
    hm.writeString(1, "duration");
    hm.writeByteArray(9, message(1, histogram.toByteArray()));
    hm.flush();
    byte[] scope = message(2, gaugeMetric.toByteArray(), histogramMetric.toByteArray());
    return message(1, message(2, scope));
  }

  private static byte[] keyValue() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeString(1, "pump");
    out.writeByteArray(2, strings("p1"));
    out.flush();
    return bytes.toByteArray();
  }

  private static byte[] packed(long... values) {
    java.nio.ByteBuffer buffer =
        java.nio.ByteBuffer.allocate(8 * values.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (long value : values) {
      buffer.putLong(value);
    }
    return buffer.array();
  }

  private static byte[] damaged(byte[] valid, Random random) {
    byte[] bytes = valid.clone();
    switch (random.nextInt(3)) {
      case 0 -> {
        for (int i = 0; i < 1 + random.nextInt(4); i++) {
          bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
      }
      case 1 -> bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
      default -> {
        // A length-like byte made large: 0x7f, or the start of a long varint.
        bytes[random.nextInt(bytes.length)] = (byte) (random.nextBoolean() ? 0x7f : 0xff);
      }
    }
    return bytes;
  }

  @Test
  void damagedBodiesAreRefusedWithTheFormatsOwnError() throws IOException {
    long seed = TestSeed.seed();
    System.out.println("MetricsBodyFuzzTest seed " + Long.toHexString(seed));
    Random random = new Random(seed);
    byte[] remoteWrite = remoteWrite();
    byte[] otlp = otlp();
    assertThat(PrometheusRemoteWrite.points(Snappy.compress(remoteWrite), 1 << 20)).hasSize(2);
    assertThat(OtlpMetrics.fromProtobuf(otlp)).hasSize(2);
    try {
      // A timestamp no microsecond count holds: refused, not an arithmetic error.
      PrometheusRemoteWrite.points(Snappy.compress(withTimestamp(Long.MAX_VALUE / 10)), 1 << 20);
      throw new AssertionError("a sample at Long.MAX_VALUE / 10 ms was taken");
    } catch (PrometheusRemoteWrite.Malformed expected) {
      assertThat(expected).hasMessageContaining("timestamp");
    }
    for (int i = 0; i < 5_000; i++) {
      byte[] body = damaged(remoteWrite, random);
      byte[] compressed =
          random.nextInt(4) == 0
              ? damaged(Snappy.compress(remoteWrite), random)
              : Snappy.compress(body);
      try {
        PrometheusRemoteWrite.points(compressed, 1 << 20);
      } catch (PrometheusRemoteWrite.Malformed expected) {
        // refused, as it should be
      } catch (RuntimeException e) {
        throw new AssertionError("seed " + Long.toHexString(seed) + ", case " + i, e);
      }
      try {
        OtlpMetrics.fromProtobuf(damaged(otlp, random));
      } catch (OtlpMetrics.Malformed expected) {
        // refused
      } catch (RuntimeException e) {
        throw new AssertionError("seed " + Long.toHexString(seed) + ", case " + i, e);
      }
    }
  }
}

package dev.timelake.server;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.snappy.SnappyDecompressor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prometheus remote write (1.0: a snappy-compressed {@code prometheus.WriteRequest}) as points for
 * the line-protocol writer: each time series is a table named after its metric (its {@code
 * __name__}, a {@code :} read as {@code _}), its other labels the tags (the series key), each
 * sample a row with the value in column {@code value} and its millisecond timestamp in {@code
 * time}. Staleness markers (the NaN Prometheus writes when a series ends) are not stored; metadata,
 * exemplars and native histograms are ignored.
 */
final class PrometheusRemoteWrite {
  /** The NaN bit pattern Prometheus uses as a staleness marker. */
  static final long STALE_NAN = 0x7ff0000000000002L;

  /** A body that is not a remote-write request; the message says why (HTTP 400). */
  static final class Malformed extends RuntimeException {
    Malformed(String message) {
      super(message);
    }
  }

  private PrometheusRemoteWrite() {}

  /**
   * The points of a remote-write body; refuses one that decompresses to more than {@code maxBytes}
   * before decompressing it.
   *
   * @throws Malformed naming what is wrong
   */
  static List<LineProtocol.Point> points(byte[] body, int maxBytes) {
    byte[] request = decompress(body, maxBytes);
    List<LineProtocol.Point> points = new ArrayList<>();
    try {
      ProtobufReader message = new ProtobufReader(request);
      int series = 0;
      while (message.next()) {
        if (message.field() == 1) {
          series++;
          timeSeries(message.message(), series, points);
        } else {
          message.skip();
        }
      }
    } catch (ProtobufReader.Malformed e) {
      throw new Malformed("The body is not a Prometheus remote-write request: " + e.getMessage());
    }
    return points;
  }

  private static void timeSeries(ProtobufReader series, int number, List<LineProtocol.Point> points)
      throws ProtobufReader.Malformed {
    Map<String, String> labels = new TreeMap<>();
    List<long[]> samples = new ArrayList<>();
    while (series.next()) {
      switch (series.field()) {
        case 1 -> label(series.message(), labels, number);
        case 2 -> samples.add(sample(series.message()));
        default -> series.skip();
      }
    }
    String name = labels.remove("__name__");
    if (name == null || name.isEmpty()) {
      throw new Malformed("time series " + number + " has no __name__ label: " + labels);
    }
    String measurement = name.replace(':', '_');
    Map<String, String> tags = Collections.unmodifiableMap(labels);
    for (long[] sample : samples) {
      if (sample[0] == STALE_NAN) {
        continue;
      }
      if (Math.abs(sample[1]) > Long.MAX_VALUE / 1000) {
        throw new Malformed(
            "time series "
                + number
                + " has a sample at "
                + sample[1]
                + " ms, a timestamp no"
                + " time column holds");
      }
      points.add(
          new LineProtocol.Point(
              number,
              measurement,
              tags,
              List.of(
                  new LineProtocol.Field(
                      "value", LineProtocol.FieldType.DOUBLE, Double.longBitsToDouble(sample[0]))),
              sample[1] * 1000L));
    }
  }

  private static void label(ProtobufReader label, Map<String, String> labels, int series)
      throws ProtobufReader.Malformed {
    String name = null;
    String value = "";
    while (label.next()) {
      switch (label.field()) {
        case 1 -> name = label.string();
        case 2 -> value = label.string();
        default -> label.skip();
      }
    }
    if (name == null || name.isEmpty()) {
      throw new Malformed("time series " + series + " has a label without a name");
    }
    if (labels.put(name, value) != null) {
      throw new Malformed("time series " + series + " has label " + name + " twice");
    }
  }

  /** A sample as {bits of the value, timestamp in ms}. */
  private static long[] sample(ProtobufReader sample) throws ProtobufReader.Malformed {
    long bits = 0;
    long millis = 0;
    while (sample.next()) {
      switch (sample.field()) {
        case 1 -> {
          sample.expect(ProtobufReader.FIXED64);
          bits = sample.fixed64();
        }
        case 2 -> {
          sample.expect(ProtobufReader.VARINT);
          millis = sample.varint();
        }
        default -> sample.skip();
      }
    }
    return new long[] {bits, millis};
  }

  private static byte[] decompress(byte[] body, int maxBytes) {
    // Snappy's block starts with the decompressed length as a varint: read here, within the body,
    // and checked before anything that size is allocated.
    long length = 0;
    int at = 0;
    for (int shift = 0; ; shift += 7) {
      if (at >= body.length || shift > 28) {
        throw new Malformed("The body is not snappy-compressed data (no length in its header)");
      }
      byte b = body[at++];
      length |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (length > maxBytes) {
      throw new Malformed(
          "The body decompresses to "
              + length
              + " bytes, more than the "
              + maxBytes
              + " a request may hold");
    }
    SnappyDecompressor snappy = new SnappyDecompressor();
    byte[] request = new byte[(int) length];
    try {
      int written = snappy.decompress(body, 0, body.length, request, 0, request.length);
      if (written != length) {
        throw new Malformed("The body's snappy data ends early");
      }
    } catch (MalformedInputException | IllegalArgumentException e) {
      throw new Malformed("The body is corrupt snappy data: " + e.getMessage());
    }
    return request;
  }
}

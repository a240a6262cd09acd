package dev.timelake.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * OpenTelemetry metrics over OTLP/HTTP ({@code ExportMetricsServiceRequest}, protobuf or JSON) as
 * points for the line-protocol writer: each metric is a table named after it (characters other than
 * letters, digits and {@code _} read as {@code _}), the resource's and the data point's attributes
 * are the tags (the series key; names sanitized the same way, the data point's winning over the
 * resource's), each data point a row:
 *
 * <ul>
 *   <li>gauge: {@code value} (DOUBLE, or BIGINT for integer points);
 *   <li>sum: {@code value}, with the tags {@code temporality} ({@code delta} or {@code cumulative})
 *       and {@code monotonic} ({@code true}/{@code false}), and the field {@code
 *       start_time_unix_nano} (where a cumulative series restarts);
 *   <li>histogram: {@code count}, {@code sum}, {@code min}, {@code max} and one BIGINT field per
 *       bucket with the count of that bucket alone, named after its upper bound ({@code le_0_25},
 *       {@code le_inf}; {@code m} for a minus sign), so a rollup merges histograms by summing the
 *       columns; {@code temporality} as a tag;
 *   <li>exponential histogram: {@code count}, {@code sum}, {@code min}, {@code max}, {@code
 *       zero_count} (which merge as those of a histogram), {@code scale}, and the buckets as sent,
 *       {@code positive} and {@code negative} as text {@code offset:count,count,…} (bucket {@code
 *       offset + i} counts values in (2^(2^-scale·(offset+i)), 2^(2^-scale·(offset+i+1))]); {@code
 *       temporality} as a tag;
 *   <li>summary: {@code count}, {@code sum} and one DOUBLE field per quantile, named after it
 *       ({@code q_0_5}, {@code q_0_99}; {@code q_1} the maximum).
 * </ul>
 */
final class OtlpMetrics {
  /** A body that is not a metrics export request; the message says why (HTTP 400). */
  static final class Malformed extends RuntimeException {
    Malformed(String message) {
      super(message);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private OtlpMetrics() {}

  /** One data point, whichever encoding it came in. */
  private record DataPoint(
      Map<String, String> attributes,
      long timeNanos,
      long startNanos,
      List<LineProtocol.Field> fields) {}

  /** The points of a protobuf-encoded request. */
  static List<LineProtocol.Point> fromProtobuf(byte[] body) {
    List<LineProtocol.Point> points = new ArrayList<>();
    try {
      ProtobufReader request = new ProtobufReader(body);
      while (request.next()) {
        if (request.field() == 1) {
          resourceMetrics(request.message(), points);
        } else {
          request.skip();
        }
      }
    } catch (ProtobufReader.Malformed e) {
      throw new Malformed("The body is not an OTLP metrics export request: " + e.getMessage());
    }
    return points;
  }

  private static void resourceMetrics(ProtobufReader resourceMetrics, List<LineProtocol.Point> out)
      throws ProtobufReader.Malformed {
    Map<String, String> resource = new TreeMap<>();
    List<ProtobufReader> scopes = new ArrayList<>();
    while (resourceMetrics.next()) {
      switch (resourceMetrics.field()) {
        case 1 -> {
          ProtobufReader fields = resourceMetrics.message();
          while (fields.next()) {
            if (fields.field() == 1) {
              attribute(fields.message(), resource);
            } else {
              fields.skip();
            }
          }
        }
        case 2 -> scopes.add(resourceMetrics.message());
        default -> resourceMetrics.skip();
      }
    }
    for (ProtobufReader scope : scopes) {
      while (scope.next()) {
        if (scope.field() == 2) {
          metric(scope.message(), resource, out);
        } else {
          scope.skip();
        }
      }
    }
  }

  private static void metric(
      ProtobufReader metric, Map<String, String> resource, List<LineProtocol.Point> out)
      throws ProtobufReader.Malformed {
    String name = "";
    List<DataPoint> points = new ArrayList<>();
    Map<String, String> kindTags = new TreeMap<>();
    while (metric.next()) {
      switch (metric.field()) {
        case 1 -> name = metric.string();
        case 5, 7, 9, 10, 11 -> {
          int kind = metric.field();
          ProtobufReader data = metric.message();
          while (data.next()) {
            switch (data.field()) {
              case 1 ->
                  points.add(
                      switch (kind) {
                        case 9 -> histogramPoint(data.message());
                        case 10 -> exponentialPoint(data.message());
                        case 11 -> summaryPoint(data.message());
                        default -> numberPoint(data.message());
                      });
              case 2 -> {
                data.expect(ProtobufReader.VARINT);
                kindTags.put("temporality", temporality((int) data.varint()));
              }
              case 3 -> {
                data.expect(ProtobufReader.VARINT);
                kindTags.put("monotonic", Boolean.toString(data.varint() != 0));
              }
              default -> data.skip();
            }
          }
          if (kind == 7) {
            kindTags.putIfAbsent("monotonic", "false");
          }
        }
        default -> metric.skip();
      }
    }
    add(name, resource, kindTags, points, out);
  }

  private static DataPoint numberPoint(ProtobufReader point) throws ProtobufReader.Malformed {
    Map<String, String> attributes = new TreeMap<>();
    long time = 0;
    long start = 0;
    LineProtocol.Field value = null;
    while (point.next()) {
      switch (point.field()) {
        case 7 -> attribute(point.message(), attributes);
        case 2 -> start = fixed64(point);
        case 3 -> time = fixed64(point);
        case 4 ->
            value =
                new LineProtocol.Field(
                    "value",
                    LineProtocol.FieldType.DOUBLE,
                    Double.longBitsToDouble(fixed64(point)));
        case 6 ->
            value = new LineProtocol.Field("value", LineProtocol.FieldType.BIGINT, fixed64(point));
        default -> point.skip();
      }
    }
    List<LineProtocol.Field> fields = new ArrayList<>();
    if (value != null) {
      fields.add(value);
    }
    return new DataPoint(attributes, time, start, fields);
  }

  private static DataPoint histogramPoint(ProtobufReader point) throws ProtobufReader.Malformed {
    Map<String, String> attributes = new TreeMap<>();
    long time = 0;
    long start = 0;
    List<LineProtocol.Field> fields = new ArrayList<>();
    List<Long> counts = new ArrayList<>();
    List<Double> bounds = new ArrayList<>();
    while (point.next()) {
      switch (point.field()) {
        case 9 -> attribute(point.message(), attributes);
        case 2 -> start = fixed64(point);
        case 3 -> time = fixed64(point);
        case 4 ->
            fields.add(
                new LineProtocol.Field("count", LineProtocol.FieldType.BIGINT, fixed64(point)));
        case 5 -> fields.add(doubleField("sum", fixed64(point)));
        case 11 -> fields.add(doubleField("min", fixed64(point)));
        case 12 -> fields.add(doubleField("max", fixed64(point)));
        case 6 -> packedFixed64(point, counts, false, null);
        case 7 -> packedFixed64(point, null, true, bounds);
        default -> point.skip();
      }
    }
    fields.addAll(buckets(counts, bounds));
    return new DataPoint(attributes, time, start, fields);
  }

  private static DataPoint exponentialPoint(ProtobufReader point) throws ProtobufReader.Malformed {
    Map<String, String> attributes = new TreeMap<>();
    long time = 0;
    long start = 0;
    List<LineProtocol.Field> fields = new ArrayList<>();
    while (point.next()) {
      switch (point.field()) {
        case 1 -> attribute(point.message(), attributes);
        case 2 -> start = fixed64(point);
        case 3 -> time = fixed64(point);
        case 4 -> fields.add(bigint("count", fixed64(point)));
        case 5 -> fields.add(doubleField("sum", fixed64(point)));
        case 6 -> {
          point.expect(ProtobufReader.VARINT);
          fields.add(bigint("scale", zigzag(point.varint())));
        }
        case 7 -> fields.add(bigint("zero_count", fixed64(point)));
        case 8, 9 -> {
          String name = point.field() == 8 ? "positive" : "negative";
          fields.add(text(name, exponentialBuckets(point.message())));
        }
        case 12 -> fields.add(doubleField("min", fixed64(point)));
        case 13 -> fields.add(doubleField("max", fixed64(point)));
        default -> point.skip();
      }
    }
    return new DataPoint(attributes, time, start, fields);
  }

  /** An exponential histogram's buckets of one sign as {@code offset:count,count,…}. */
  private static String exponentialBuckets(ProtobufReader buckets) throws ProtobufReader.Malformed {
    long offset = 0;
    List<Long> counts = new ArrayList<>();
    while (buckets.next()) {
      switch (buckets.field()) {
        case 1 -> {
          buckets.expect(ProtobufReader.VARINT);
          offset = zigzag(buckets.varint());
        }
        case 2 -> {
          if (buckets.wireType() == ProtobufReader.VARINT) {
            counts.add(buckets.varint());
          } else {
            ProtobufReader packed = buckets.message();
            while (packed.hasMore()) {
              counts.add(packed.varint());
            }
          }
        }
        default -> buckets.skip();
      }
    }
    return bucketsText(offset, counts);
  }

  private static String bucketsText(long offset, List<Long> counts) {
    StringBuilder text = new StringBuilder().append(offset).append(':');
    for (int i = 0; i < counts.size(); i++) {
      text.append(i == 0 ? "" : ",").append(Long.toUnsignedString(counts.get(i)));
    }
    return text.toString();
  }

  private static DataPoint summaryPoint(ProtobufReader point) throws ProtobufReader.Malformed {
    Map<String, String> attributes = new TreeMap<>();
    long time = 0;
    long start = 0;
    List<LineProtocol.Field> fields = new ArrayList<>();
    while (point.next()) {
      switch (point.field()) {
        case 7 -> attribute(point.message(), attributes);
        case 2 -> start = fixed64(point);
        case 3 -> time = fixed64(point);
        case 4 -> fields.add(bigint("count", fixed64(point)));
        case 5 -> fields.add(doubleField("sum", fixed64(point)));
        case 6 -> {
          ProtobufReader quantile = point.message();
          double at = 0;
          double value = 0;
          while (quantile.next()) {
            switch (quantile.field()) {
              case 1 -> at = Double.longBitsToDouble(fixed64(quantile));
              case 2 -> value = Double.longBitsToDouble(fixed64(quantile));
              default -> quantile.skip();
            }
          }
          fields.add(quantileField(at, value));
        }
        default -> point.skip();
      }
    }
    return new DataPoint(attributes, time, start, fields);
  }

  /** A summary's value at a quantile, named after it: {@code q_0_99}. */
  private static LineProtocol.Field quantileField(double quantile, double value) {
    if (!(quantile >= 0 && quantile <= 1)) {
      throw new Malformed("a summary quantile is " + quantile + " (expected 0 to 1)");
    }
    return new LineProtocol.Field("q_" + boundName(quantile), LineProtocol.FieldType.DOUBLE, value);
  }

  private static LineProtocol.Field bigint(String name, long value) {
    return new LineProtocol.Field(name, LineProtocol.FieldType.BIGINT, value);
  }

  private static LineProtocol.Field text(String name, String value) {
    return new LineProtocol.Field(name, LineProtocol.FieldType.VARCHAR, value);
  }

  /** A protobuf sint32/sint64 from its zigzag encoding. */
  private static long zigzag(long encoded) {
    return (encoded >>> 1) ^ -(encoded & 1);
  }

  private static LineProtocol.Field doubleField(String name, long bits) {
    return new LineProtocol.Field(
        name, LineProtocol.FieldType.DOUBLE, Double.longBitsToDouble(bits));
  }

  private static long fixed64(ProtobufReader reader) throws ProtobufReader.Malformed {
    reader.expect(ProtobufReader.FIXED64);
    return reader.fixed64();
  }

  /** A repeated fixed64 or double field, packed (one length-delimited run) or not. */
  private static void packedFixed64(
      ProtobufReader reader, List<Long> longs, boolean doubles, List<Double> into)
      throws ProtobufReader.Malformed {
    if (reader.wireType() == ProtobufReader.FIXED64) {
      long bits = reader.fixed64();
      if (doubles) {
        into.add(Double.longBitsToDouble(bits));
      } else {
        longs.add(bits);
      }
      return;
    }
    ProtobufReader packed = reader.message();
    while (packed.hasMore()) {
      long bits = packed.fixed64();
      if (doubles) {
        into.add(Double.longBitsToDouble(bits));
      } else {
        longs.add(bits);
      }
    }
  }

  /** One field per bucket: its own count, named after its upper bound. */
  private static List<LineProtocol.Field> buckets(List<Long> counts, List<Double> bounds) {
    if (!counts.isEmpty() && counts.size() != bounds.size() + 1) {
      throw new Malformed(
          "a histogram has "
              + counts.size()
              + " bucket counts for "
              + bounds.size()
              + " bounds (expected one more count than bounds)");
    }
    List<LineProtocol.Field> fields = new ArrayList<>();
    for (int i = 0; i < counts.size(); i++) {
      String name = i < bounds.size() ? "le_" + boundName(bounds.get(i)) : "le_inf";
      fields.add(new LineProtocol.Field(name, LineProtocol.FieldType.BIGINT, counts.get(i)));
    }
    return fields;
  }

  private static String boundName(double bound) {
    if (Double.isNaN(bound) || Double.isInfinite(bound)) {
      throw new Malformed("a histogram bound is " + bound);
    }
    return BigDecimal.valueOf(bound)
        .stripTrailingZeros()
        .toPlainString()
        .replace('-', 'm')
        .replace('.', '_');
  }

  private static void attribute(ProtobufReader keyValue, Map<String, String> into)
      throws ProtobufReader.Malformed {
    String key = null;
    String value = "";
    while (keyValue.next()) {
      switch (keyValue.field()) {
        case 1 -> key = keyValue.string();
        case 2 -> value = anyValue(keyValue.message());
        default -> keyValue.skip();
      }
    }
    if (key != null) {
      into.put(key, value);
    }
  }

  private static String anyValue(ProtobufReader value) throws ProtobufReader.Malformed {
    String text = "";
    while (value.next()) {
      switch (value.field()) {
        case 1 -> text = value.string();
        case 2 -> text = Boolean.toString(value.varint() != 0);
        case 3 -> text = Long.toString(value.varint());
        case 4 -> text = Double.toString(value.doubleValue());
        default -> value.skip(); // arrays, maps and bytes are not tags
      }
    }
    return text;
  }

  private static String temporality(int value) {
    return switch (value) {
      case 1 -> "delta";
      case 2 -> "cumulative";
      default -> "unspecified";
    };
  }

  /** The points of a JSON-encoded request (OTLP/JSON: camelCase names, 64-bit integers as text). */
  static List<LineProtocol.Point> fromJson(byte[] body) {
    JsonNode request;
    try {
      request = JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new Malformed("The body is not JSON: " + e.getMessage());
    }
    if (request == null || !request.isObject()) {
      throw new Malformed("The body is not an OTLP metrics export request (a JSON object)");
    }
    List<LineProtocol.Point> out = new ArrayList<>();
    for (JsonNode resourceMetrics : request.path("resourceMetrics")) {
      Map<String, String> resource =
          jsonAttributes(resourceMetrics.path("resource").path("attributes"));
      for (JsonNode scope : resourceMetrics.path("scopeMetrics")) {
        for (JsonNode metric : scope.path("metrics")) {
          String name = metric.path("name").asText("");
          Map<String, String> kindTags = new TreeMap<>();
          List<DataPoint> points = new ArrayList<>();
          for (String kind :
              List.of("gauge", "sum", "histogram", "exponentialHistogram", "summary")) {
            JsonNode data = metric.path(kind);
            if (data.isMissingNode()) {
              continue;
            }
            if (data.has("aggregationTemporality")) {
              kindTags.put(
                  "temporality", temporality(jsonTemporality(data.get("aggregationTemporality"))));
            }
            if (kind.equals("sum")) {
              kindTags.put(
                  "monotonic", Boolean.toString(data.path("isMonotonic").asBoolean(false)));
            }
            for (JsonNode point : data.path("dataPoints")) {
              points.add(
                  switch (kind) {
                    case "histogram" -> jsonHistogram(point);
                    case "exponentialHistogram" -> jsonExponential(point);
                    case "summary" -> jsonSummary(point);
                    default -> jsonNumber(point);
                  });
            }
          }
          add(name, resource, kindTags, points, out);
        }
      }
    }
    return out;
  }

  private static int jsonTemporality(JsonNode value) {
    if (value.isNumber()) {
      return value.asInt();
    }
    return switch (value.asText()) {
      case "AGGREGATION_TEMPORALITY_DELTA" -> 1;
      case "AGGREGATION_TEMPORALITY_CUMULATIVE" -> 2;
      default -> 0;
    };
  }

  private static DataPoint jsonNumber(JsonNode point) {
    List<LineProtocol.Field> fields = new ArrayList<>();
    if (point.has("asDouble")) {
      fields.add(
          new LineProtocol.Field(
              "value", LineProtocol.FieldType.DOUBLE, jsonDouble(point.get("asDouble"))));
    } else if (point.has("asInt")) {
      fields.add(
          new LineProtocol.Field(
              "value", LineProtocol.FieldType.BIGINT, jsonLong(point.get("asInt"))));
    }
    return new DataPoint(
        jsonAttributes(point.path("attributes")),
        jsonLong(point.path("timeUnixNano")),
        jsonLong(point.path("startTimeUnixNano")),
        fields);
  }

  private static DataPoint jsonHistogram(JsonNode point) {
    List<LineProtocol.Field> fields = new ArrayList<>();
    if (point.has("count")) {
      fields.add(
          new LineProtocol.Field(
              "count", LineProtocol.FieldType.BIGINT, jsonLong(point.get("count"))));
    }
    for (String name : List.of("sum", "min", "max")) {
      if (point.has(name)) {
        fields.add(
            new LineProtocol.Field(
                name, LineProtocol.FieldType.DOUBLE, jsonDouble(point.get(name))));
      }
    }
    List<Long> counts = new ArrayList<>();
    point.path("bucketCounts").forEach(count -> counts.add(jsonLong(count)));
    List<Double> bounds = new ArrayList<>();
    point.path("explicitBounds").forEach(bound -> bounds.add(jsonDouble(bound)));
    fields.addAll(buckets(counts, bounds));
    return new DataPoint(
        jsonAttributes(point.path("attributes")),
        jsonLong(point.path("timeUnixNano")),
        jsonLong(point.path("startTimeUnixNano")),
        fields);
  }

  private static DataPoint jsonExponential(JsonNode point) {
    List<LineProtocol.Field> fields = new ArrayList<>();
    for (String name : List.of("count", "scale", "zeroCount")) {
      if (point.has(name)) {
        fields.add(
            bigint(name.equals("zeroCount") ? "zero_count" : name, jsonLong(point.get(name))));
      }
    }
    for (String name : List.of("sum", "min", "max")) {
      if (point.has(name)) {
        fields.add(
            new LineProtocol.Field(
                name, LineProtocol.FieldType.DOUBLE, jsonDouble(point.get(name))));
      }
    }
    for (String sign : List.of("positive", "negative")) {
      JsonNode buckets = point.path(sign);
      if (buckets.isObject()) {
        List<Long> counts = new ArrayList<>();
        buckets.path("bucketCounts").forEach(count -> counts.add(jsonLong(count)));
        fields.add(text(sign, bucketsText(jsonLong(buckets.path("offset")), counts)));
      }
    }
    return new DataPoint(
        jsonAttributes(point.path("attributes")),
        jsonLong(point.path("timeUnixNano")),
        jsonLong(point.path("startTimeUnixNano")),
        fields);
  }

  private static DataPoint jsonSummary(JsonNode point) {
    List<LineProtocol.Field> fields = new ArrayList<>();
    if (point.has("count")) {
      fields.add(bigint("count", jsonLong(point.get("count"))));
    }
    if (point.has("sum")) {
      fields.add(
          new LineProtocol.Field(
              "sum", LineProtocol.FieldType.DOUBLE, jsonDouble(point.get("sum"))));
    }
    for (JsonNode quantile : point.path("quantileValues")) {
      fields.add(
          quantileField(
              jsonDouble(
                  quantile.path("quantile").isMissingNode()
                      ? JSON.getNodeFactory().numberNode(0)
                      : quantile.get("quantile")),
              jsonDouble(
                  quantile.path("value").isMissingNode()
                      ? JSON.getNodeFactory().numberNode(0)
                      : quantile.get("value"))));
    }
    return new DataPoint(
        jsonAttributes(point.path("attributes")),
        jsonLong(point.path("timeUnixNano")),
        jsonLong(point.path("startTimeUnixNano")),
        fields);
  }

  private static Map<String, String> jsonAttributes(JsonNode attributes) {
    Map<String, String> out = new TreeMap<>();
    for (JsonNode attribute : attributes) {
      JsonNode value = attribute.path("value");
      String text =
          value.has("stringValue")
              ? value.get("stringValue").asText()
              : value.has("boolValue")
                  ? Boolean.toString(value.get("boolValue").asBoolean())
                  : value.has("intValue")
                      ? Long.toString(jsonLong(value.get("intValue")))
                      : value.has("doubleValue")
                          ? Double.toString(jsonDouble(value.get("doubleValue")))
                          : "";
      out.put(attribute.path("key").asText(""), text);
    }
    return out;
  }

  /** A 64-bit integer: OTLP/JSON writes them as text, and readers accept numbers too. */
  private static long jsonLong(JsonNode value) {
    if (value.isMissingNode() || value.isNull()) {
      return 0;
    }
    try {
      return value.isNumber() ? value.longValue() : Long.parseLong(value.asText());
    } catch (NumberFormatException e) {
      throw new Malformed("'" + value.asText() + "' is not a 64-bit integer");
    }
  }

  private static double jsonDouble(JsonNode value) {
    if (value.isNumber()) {
      return value.doubleValue();
    }
    return switch (value.asText()) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> throw new Malformed("'" + value.asText() + "' is not a number");
    };
  }

  /** The metric's data points as points of table {@code name}. */
  private static void add(
      String name,
      Map<String, String> resource,
      Map<String, String> kindTags,
      List<DataPoint> points,
      List<LineProtocol.Point> out) {
    if (points.isEmpty()) {
      return;
    }
    if (name.isEmpty()) {
      throw new Malformed("a metric has no name");
    }
    String measurement = identifier(name);
    for (DataPoint point : points) {
      Map<String, String> tags = new TreeMap<>();
      resource.forEach((key, value) -> tags.put(identifier(key), value));
      point.attributes().forEach((key, value) -> tags.put(identifier(key), value));
      tags.putAll(kindTags);
      List<LineProtocol.Field> fields = new ArrayList<>(point.fields());
      if (point.startNanos() != 0 && "cumulative".equals(kindTags.get("temporality"))) {
        fields.add(
            new LineProtocol.Field(
                "start_time_unix_nano", LineProtocol.FieldType.BIGINT, point.startNanos()));
      }
      if (fields.isEmpty()) {
        continue;
      }
      out.add(
          new LineProtocol.Point(
              out.size() + 1,
              measurement,
              Collections.unmodifiableMap(tags),
              List.copyOf(fields),
              Math.floorDiv(point.timeNanos(), 1000L)));
    }
  }

  /** A name as a table or column name: characters other than letters, digits and _ become _. */
  static String identifier(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      out.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
    }
    if (out.length() > 0 && Character.isDigit(out.charAt(0))) {
      out.insert(0, '_');
    }
    return out.toString();
  }
}

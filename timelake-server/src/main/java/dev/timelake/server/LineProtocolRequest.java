package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A write request as received: its namespace, its format (line protocol in a precision, Prometheus
 * remote write, OpenTelemetry metrics, or an INSERT's rows as an Arrow batch), the time it arrived
 * (the timestamp of lines without one) and its body (decompressed from gzip; remote write as sent,
 * snappy-compressed). Reading it again gives the same points, which is what lets the hot tier's log
 * keep the body instead of the points.
 */
record LineProtocolRequest(
    String namespace,
    Format format,
    LineProtocol.Precision precision,
    long receivedMicros,
    byte[] body) {

  /** How the body is written. */
  enum Format {
    LINE_PROTOCOL,
    PROMETHEUS_REMOTE_WRITE,
    OTLP_PROTOBUF,
    OTLP_JSON,
    /** Rows a PostgreSQL client's INSERT gave, in the table's types (see {@link HeldRowsIpc}). */
    ARROW_IPC;

    /** Whether an OTLP client sent it: answered 200 with an empty export response. */
    boolean isOtlp() {
      return this == OTLP_PROTOBUF || this == OTLP_JSON;
    }
  }

  /** The most bytes a remote-write body may decompress to: a line-protocol body's limit. */
  static final int MAX_DECOMPRESSED_BYTES = 256 << 20;

  LineProtocolRequest {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(format, "format is null");
    requireNonNull(precision, "precision is null");
    requireNonNull(body, "body is null");
  }

  /** A line-protocol request. */
  LineProtocolRequest(
      String namespace, LineProtocol.Precision precision, long receivedMicros, byte[] body) {
    this(namespace, Format.LINE_PROTOCOL, precision, receivedMicros, body);
  }

  /**
   * The request's points.
   *
   * @throws LineProtocol.ParseException for a malformed line
   * @throws PrometheusRemoteWrite.Malformed for a malformed remote-write body
   */
  List<LineProtocol.Point> points() {
    return switch (format) {
      case LINE_PROTOCOL -> LineProtocol.parse(body, precision, receivedMicros);
      case PROMETHEUS_REMOTE_WRITE -> PrometheusRemoteWrite.points(body, MAX_DECOMPRESSED_BYTES);
      case OTLP_PROTOBUF -> OtlpMetrics.fromProtobuf(body);
      case OTLP_JSON -> OtlpMetrics.fromJson(body);
      case ARROW_IPC ->
          throw new IllegalStateException("An INSERT's held rows are a batch, not points");
    };
  }
}

package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A line-protocol request as received: its namespace, precision, the time it arrived (the timestamp
 * of lines without one) and its body (decompressed). Parsing it again gives the same points, which
 * is what lets the hot tier's log keep the body instead of the points.
 */
record LineProtocolRequest(
    String namespace, LineProtocol.Precision precision, long receivedMicros, byte[] body) {
  LineProtocolRequest {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(precision, "precision is null");
    requireNonNull(body, "body is null");
  }

  /** The request's points. */
  List<LineProtocol.Point> points() {
    return LineProtocol.parse(body, precision, receivedMicros);
  }
}

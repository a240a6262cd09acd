package dev.timelake.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the line-protocol server answers a request, as InfluxDB does: 204 without a body when
 * written, otherwise a status with a JSON body ({@code code} and {@code message} for an error); a
 * 503 also tells the client to send the request again in a second.
 */
record LineProtocolAnswer(int status, String body, java.util.Optional<String> writePolicy) {
  static final LineProtocolAnswer WRITTEN = new LineProtocolAnswer(204, "");

  /** Written, to an OTLP/HTTP client over protobuf: 200 with an empty export response. */
  static final LineProtocolAnswer OTLP_PROTOBUF_WRITTEN = new LineProtocolAnswer(200, "");

  /** Written, to an OTLP/HTTP client over JSON: 200 with an empty export response. */
  static final LineProtocolAnswer OTLP_JSON_WRITTEN = new LineProtocolAnswer(200, "{}");

  /** The header naming the tables whose write policy made the points corrections. */
  static final String WRITE_POLICY_HEADER = "X-Timelake-Write-Policy";

  LineProtocolAnswer(int status, String body) {
    this(status, body, java.util.Optional.empty());
  }

  /**
   * Written: 204 without a body, as InfluxDB answers; when some tables take every write as a
   * correction ({@code write-policy = upsert}), a header says so, e.g. {@code upsert: iot.cpu}.
   */
  static LineProtocolAnswer written(java.util.List<dev.timelake.TableName> upserted) {
    if (upserted.isEmpty()) {
      return WRITTEN;
    }
    return new LineProtocolAnswer(
        204,
        "",
        java.util.Optional.of(
            "upsert: "
                + String.join(", ", upserted.stream().map(Object::toString).sorted().toList())));
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** An error answer: {@code status} with an InfluxDB-style body of {@code code} and message. */
  static LineProtocolAnswer error(int status, String code, String message) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("code", code);
    body.put("message", message == null ? "" : message);
    try {
      return new LineProtocolAnswer(status, JSON.writeValueAsString(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A map of two strings is always JSON", e);
    }
  }

  void send(HttpExchange exchange) throws IOException {
    writePolicy.ifPresent(policy -> exchange.getResponseHeaders().set(WRITE_POLICY_HEADER, policy));
    if (status == 204) {
      exchange.sendResponseHeaders(204, -1);
      return;
    }
    if (status == 200 && body.isEmpty()) {
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, -1);
      return;
    }
    if (status == 503) {
      exchange.getResponseHeaders().set("Retry-After", "1");
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}

package dev.timelake.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.timelake.Lake;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;

/** How the web console's API reads requests and writes answers: JSON both ways. */
final class ConsoleJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ConsoleJson() {}

  /**
   * A message as a client may read it: where the lake lives on the server's disk is the operator's
   * business (as over PostgreSQL, a table that does not exist is reported "in the lake").
   */
  static String forClient(Lake lake, String message) {
    return message == null ? "" : message.replace(lake.description(), "the lake");
  }

  /** µs since 1970 in ISO-8601; null for no bound. */
  static String instant(long micros) {
    if (micros == Long.MIN_VALUE || micros == Long.MAX_VALUE) {
      return null;
    }
    return java.time.Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS).toString();
  }

  /** A value as JSON: finite numbers and booleans as they are, instants in ISO-8601, else text. */
  static Object json(Object value) {
    if (value == null || value instanceof Boolean || value instanceof String) {
      return value;
    }
    if (value instanceof Double d) {
      return Double.isFinite(d) ? d : d.toString();
    }
    if (value instanceof Float f) {
      return Float.isFinite(f) ? f : f.toString();
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short) {
      return value;
    }
    if (value instanceof OffsetDateTime time) {
      return DateTimeFormatter.ISO_INSTANT.format(time.toInstant());
    }
    return String.valueOf(value);
  }

  /**
   * The request's JSON object body, at most {@link Console#MAX_BODY} bytes; else the refusal is
   * sent.
   */
  static Optional<JsonNode> body(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(Console.MAX_BODY + 1);
      if (bytes.length > Console.MAX_BODY) {
        // Read on a little (into one small buffer), so that the client sees the answer rather
        // than a connection reset while it still sends.
        byte[] discard = new byte[8192];
        for (long skipped = 0; skipped < 4L * Console.MAX_BODY; ) {
          int read = in.read(discard);
          if (read < 0) {
            break;
          }
          skipped += read;
        }
        error(
            exchange,
            413,
            "The request is over " + Console.MAX_BODY + " bytes: send one statement");
        return Optional.empty();
      }
    }
    try {
      JsonNode node = JSON.readTree(bytes);
      if (node == null || !node.isObject()) {
        error(exchange, 400, "The request body is not a JSON object");
        return Optional.empty();
      }
      return Optional.of(node);
    } catch (JsonProcessingException e) {
      error(exchange, 400, "The request body is not JSON: " + e.getOriginalMessage());
      return Optional.empty();
    }
  }

  static String text(JsonNode body, String field) {
    JsonNode value = body.get(field);
    return value == null || !value.isTextual() ? "" : value.asText();
  }

  static void error(HttpExchange exchange, int status, String message) throws IOException {
    send(exchange, status, Map.of("error", message));
  }

  static void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes;
    try {
      bytes = JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A console answer is always JSON", e);
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}

package dev.timelake.server;

import com.sun.net.httpserver.HttpExchange;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

/**
 * The credentials an HTTP request of the line-protocol and Iceberg REST servers presents: {@code
 * Authorization: Token PASSWORD} or {@code Token USER:PASSWORD}, {@code Bearer} the same (Iceberg
 * clients' {@code token} property), HTTP Basic, or InfluxDB v1's {@code u} and {@code p}
 * parameters.
 */
final class HttpAuth {
  private HttpAuth() {}

  static boolean presentsCredentials(HttpExchange exchange, Map<String, String> query) {
    return exchange.getRequestHeaders().containsKey("Authorization") || query.containsKey("p");
  }

  static boolean authorized(
      Credentials credentials, HttpExchange exchange, Map<String, String> query) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header != null) {
      int space = header.indexOf(' ');
      String scheme = space < 0 ? header : header.substring(0, space);
      String value = space < 0 ? "" : header.substring(space + 1).trim();
      return switch (scheme.toLowerCase(Locale.ROOT)) {
        case "token", "bearer" -> admitsToken(credentials, value);
        case "basic" -> admitsBasic(credentials, value);
        default -> false;
      };
    }
    String password = query.get("p");
    return password != null && credentials.admits(query.getOrDefault("u", ""), password);
  }

  private static boolean admitsToken(Credentials credentials, String token) {
    int colon = token.indexOf(':');
    return credentials.admitsToken(token)
        || (colon > 0 && credentials.admits(token.substring(0, colon), token.substring(colon + 1)));
  }

  private static boolean admitsBasic(Credentials credentials, String encoded) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return false;
    }
    int colon = decoded.indexOf(':');
    return colon >= 0
        && credentials.admits(decoded.substring(0, colon), decoded.substring(colon + 1));
  }
}

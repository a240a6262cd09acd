package dev.timelake.server;

import com.sun.net.httpserver.HttpExchange;
import dev.timelake.ClientAccess;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The credentials an HTTP request of the line-protocol and Iceberg REST servers presents: {@code
 * Authorization: Token PASSWORD} or {@code Token USER:PASSWORD}, {@code Bearer} the same (Iceberg
 * clients' {@code token} property), HTTP Basic, or InfluxDB v1's {@code u} and {@code p}
 * parameters.
 */
final class HttpAuth {
  private HttpAuth() {}

  /** What a request's credentials admit. */
  sealed interface Login {
    /** The credentials are right: what their user may do. */
    record Admitted(ClientAccess access) implements Login {}

    /** Wrong or missing credentials (401). */
    record Refused() implements Login {}

    /** Too many failed logins: refused without a password check for {@code left} (429). */
    record Throttled(Duration left, String message) implements Login {}
  }

  /**
   * Checks the request's credentials through the throttle, which counts them per address and user
   * (a bare token per address): the user's access when they are right.
   */
  static Login login(
      Credentials credentials,
      HttpExchange exchange,
      Map<String, String> query,
      InetAddress client) {
    Optional<Presented> presented = presented(exchange, query);
    if (presented.isEmpty()) {
      return new Login.Refused();
    }
    String user = presented.get().user().orElse("");
    Optional<Duration> blocked = credentials.throttle().reserve(client, user);
    if (blocked.isPresent()) {
      return new Login.Throttled(
          blocked.get(),
          LoginThrottle.refusal(client, user.isEmpty() ? "(token)" : user, blocked.get()));
    }
    Optional<String> admitted =
        presented.get().user().isPresent()
            ? (credentials.admits(user, presented.get().password())
                ? Optional.of(user)
                : presented.get().token().flatMap(credentials::userOfToken))
            : credentials.userOfToken(presented.get().password());
    if (admitted.isEmpty()) {
      return new Login.Refused();
    }
    credentials.throttle().succeeded(client, user);
    return new Login.Admitted(credentials.accessOf(admitted.get()));
  }

  /**
   * A user (none for a bare token) and password a request presents; {@code token} is a token's
   * whole text, which may itself be a password with a colon.
   */
  private record Presented(Optional<String> user, String password, Optional<String> token) {
    Presented(Optional<String> user, String password) {
      this(user, password, Optional.empty());
    }
  }

  private static Optional<Presented> presented(HttpExchange exchange, Map<String, String> query) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header != null) {
      int space = header.indexOf(' ');
      String scheme = space < 0 ? header : header.substring(0, space);
      String value = space < 0 ? "" : header.substring(space + 1).trim();
      switch (scheme.toLowerCase(Locale.ROOT)) {
        case "token", "bearer" -> {
          int colon = value.indexOf(':');
          return Optional.of(
              colon > 0
                  ? new Presented(
                      Optional.of(value.substring(0, colon)),
                      value.substring(colon + 1),
                      Optional.of(value))
                  : new Presented(Optional.empty(), value));
        }
        case "basic" -> {
          try {
            String decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0
                ? Optional.empty()
                : Optional.of(
                    new Presented(
                        Optional.of(decoded.substring(0, colon)), decoded.substring(colon + 1)));
          } catch (IllegalArgumentException e) {
            return Optional.empty();
          }
        }
        default -> {
          return Optional.empty();
        }
      }
    }
    String password = query.get("p");
    return password == null
        ? Optional.empty()
        : Optional.of(new Presented(Optional.of(query.getOrDefault("u", "")), password));
  }
}

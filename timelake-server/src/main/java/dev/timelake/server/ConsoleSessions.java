package dev.timelake.server;

import dev.timelake.ClientAccess;
import dev.timelake.Lake;
import dev.timelake.Session;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The web console's logins: a random token per login (the session cookie), each with its own CSRF
 * token and a Timelake session under the user's access, so that {@code SET} lasts across queries as
 * in psql. A login ends at logout, after {@link #IDLE} without a request, or when the user's
 * password or role is no longer what it was at login (the users file is read again when it
 * changes).
 */
final class ConsoleSessions implements AutoCloseable {
  /** How long a login lasts without a request. */
  static final Duration IDLE = Duration.ofHours(8);

  /** At most this many logins at once; the oldest idle one ends first. */
  static final int MAX_LOGINS = 256;

  private final SecureRandom random = new SecureRandom();
  private final Map<String, Login> logins = new ConcurrentHashMap<>();
  private final Lake lake;
  private final Credentials credentials;
  private final Clock clock;

  ConsoleSessions(Lake lake, Credentials credentials, Clock clock) {
    this.lake = lake;
    this.credentials = credentials;
    this.clock = clock;
  }

  /** One login: its cookie token, CSRF token, user's access and secret when it logged in. */
  static final class Login {
    final String token;
    final String csrf;
    final ClientAccess access;
    private final String secret;
    private final Session session;
    private volatile Instant lastUsed;

    private Login(
        String token,
        String csrf,
        ClientAccess access,
        String secret,
        Session session,
        Instant now) {
      this.token = token;
      this.csrf = csrf;
      this.access = access;
      this.secret = secret;
      this.session = session;
      this.lastUsed = now;
    }

    /** Runs {@code work} with the login's session, one statement at a time. */
    synchronized <T> T withSession(java.util.function.Function<Session, T> work) {
      return work.apply(session);
    }

    /** Cancels the statement the login runs, if any; the page's Cancel button. */
    void cancel() {
      session.cancel();
    }

    private synchronized void close() {
      session.close();
    }
  }

  /** Starts a login for {@code user}, whose password was checked. */
  Login start(String user) {
    sweep();
    ClientAccess access = credentials.accessOf(user);
    Login login =
        new Login(token(), token(), access, secret(user), lake.newSession(access), clock.instant());
    logins.put(login.token, login);
    return login;
  }

  /**
   * The login {@code token} names, if it is live: not ended, not idle too long, and its user's
   * password and role unchanged.
   */
  Optional<Login> find(String token) {
    if (token == null) {
      return Optional.empty();
    }
    Login login = logins.get(token);
    if (login == null) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    boolean stale =
        login.lastUsed.plus(IDLE).isBefore(now)
            || !java.util.Objects.equals(secret(login.access.user()), login.secret)
            || !credentials.accessOf(login.access.user()).equals(login.access);
    if (stale) {
      end(token);
      return Optional.empty();
    }
    login.lastUsed = now;
    return Optional.of(login);
  }

  /** {@code user}'s verifier as the users file writes it: equal when the password is unchanged. */
  private String secret(String user) {
    return credentials.secretOf(user).map(ScramSecret::text).orElse(null);
  }

  /** Ends the login {@code token} names, if any. */
  void end(String token) {
    Login login = token == null ? null : logins.remove(token);
    if (login != null) {
      login.close();
    }
  }

  private void sweep() {
    Instant now = clock.instant();
    logins.values().stream()
        .filter(login -> login.lastUsed.plus(IDLE).isBefore(now))
        .map(login -> login.token)
        .toList()
        .forEach(this::end);
    while (logins.size() >= MAX_LOGINS) {
      logins.values().stream()
          .min(java.util.Comparator.comparing(login -> login.lastUsed))
          .ifPresent(oldest -> end(oldest.token));
    }
  }

  private String token() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public void close() {
    logins.keySet().stream().toList().forEach(this::end);
  }
}

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

  /** How long a result the page pages through stays open without being read. */
  static final Duration CURSOR_IDLE = Duration.ofMinutes(10);

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

    /** The result the page is paging through, if any; its number, and when it was last read. */
    private ConsoleCursor cursor;

    private long cursorNumber;
    private volatile Instant cursorUsed;

    /**
     * Runs one statement: the result paged before is closed first, and {@code work} may keep the
     * new one open as a cursor ({@link #keep}).
     */
    synchronized <T> T query(java.util.function.Function<Session, T> work) {
      dropCursor();
      return work.apply(session);
    }

    /** Keeps {@code cursor} open for the page to read on; its number names it to the page. */
    synchronized long keep(ConsoleCursor cursor) {
      dropCursor();
      this.cursor = cursor;
      this.cursorUsed = Instant.now();
      return ++cursorNumber;
    }

    /**
     * The cursor {@code number} names, when it is still the login's latest; a cursor that fails is
     * closed (its result cannot be read on where it stopped).
     */
    synchronized <T> Optional<T> withCursor(long number, CursorWork<T> work)
        throws java.io.IOException {
      if (cursor == null || number != cursorNumber) {
        return Optional.empty();
      }
      cursorUsed = Instant.now();
      try {
        return Optional.of(work.apply(cursor));
      } catch (java.io.IOException | RuntimeException e) {
        dropCursor();
        throw e;
      }
    }

    /** What the page does with a cursor. */
    interface CursorWork<T> {
      T apply(ConsoleCursor cursor) throws java.io.IOException;
    }

    private synchronized void dropCursor() {
      if (cursor != null) {
        cursor.close();
        cursor = null;
      }
      cursorUsed = null;
    }

    /** Closes the cursor when the page has not read it for {@link #CURSOR_IDLE}. */
    private void dropCursorIdleSince(Instant limit) {
      Instant used = cursorUsed;
      if (used != null && used.isBefore(limit)) {
        synchronized (this) {
          if (cursorUsed != null && cursorUsed.isBefore(limit)) {
            dropCursor();
          }
        }
      }
    }

    /** Cancels the statement the login runs, if any; the page's Cancel button. */
    void cancel() {
      session.cancel();
    }

    private synchronized void close() {
      dropCursor();
      session.close();
    }
  }

  /** Starts a login for {@code user}, whose password was checked. */
  Login start(String user) {
    sweep();
    ClientAccess access = credentials.accessOf(user);
    Login login =
        new Login(token(), token(), access, secret(user), session(access), clock.instant());
    logins.put(login.token, login);
    return login;
  }

  /** A login's session: its INSERTs go to the server's hot tier, which its reads commit first. */
  private dev.timelake.Session session(ClientAccess access) {
    dev.timelake.Session session = lake.newSession(access);
    HotTier.of(lake).ifPresent(tier -> session.holdWritesIn(tier.heldWrites("console")));
    return session;
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
    dropIdleCursors();
    return Optional.of(login);
  }

  /** {@code user}'s verifier as the users file writes it: equal when the password is unchanged. */
  private String secret(String user) {
    return credentials.secretOf(user).map(ScramSecret::text).orElse(null);
  }

  /**
   * Closes every login's result left unread for {@link #CURSOR_IDLE}, at each request of any login:
   * a login running a statement has none to close and is not waited for.
   */
  private void dropIdleCursors() {
    Instant limit = Instant.now().minus(CURSOR_IDLE);
    logins.values().forEach(login -> login.dropCursorIdleSince(limit));
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
    dropIdleCursors();
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

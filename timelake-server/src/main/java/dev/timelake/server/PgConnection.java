package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.engine.StatementSplitter;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One client of the PostgreSQL protocol: after its start-up and login ({@link PgLogin}), simple
 * queries, each statement of a query string run in the connection's own Timelake {@link Session},
 * and the extended protocol ({@link PgExtendedQuery}: Parse, Bind, Describe, Execute, Close; Sync
 * here); rows in text or binary format and a command tag per statement ({@link PgResults}); COPY
 * from and to the client ({@link PgCopy}, {@link PgCopyOut}) in the simple protocol.
 */
final class PgConnection implements Runnable {
  private volatile Socket socket;
  private final Lake lake;
  private final Optional<Tls> tls;
  private final Credentials credentials;
  private final PgCancels cancels;
  private final ServerLimits limits;
  private final java.util.concurrent.ScheduledExecutorService timer;
  private final StatementTimeout timeout;
  private final int key = RANDOM.nextInt();
  private final int secret = RANDOM.nextInt();

  /** Cancel keys are secrets: a guessed one cancels another client's statement. */
  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  private PgMessages.Writer out;
  private DataInputStream in;
  private Session session;
  private boolean failedUntilSync;

  /** Frees this client's place among the server's connections not yet logged in; once. */
  private final Runnable loginEnded;

  private boolean loginOver;

  private void endLogin() {
    if (!loginOver) {
      loginOver = true;
      loginEnded.run();
    }
  }

  PgConnection(
      Socket socket,
      Lake lake,
      Credentials credentials,
      PgCancels cancels,
      ServerLimits limits,
      java.util.concurrent.ScheduledExecutorService timer,
      Optional<Tls> tls,
      Runnable loginEnded) {
    this.socket = socket;
    this.loginEnded = loginEnded;
    this.tls = tls;
    this.lake = lake;
    this.credentials = credentials;
    this.cancels = cancels;
    this.limits = limits;
    this.timer = timer;
    this.timeout = new StatementTimeout(limits.statementTimeout(), timer);
  }

  /** Runs {@code sql} in the session, cancelled when it outlasts the statement timeout. */
  private QueryResult timed(String sql) {
    QueryResult result;
    try {
      result = timeout.run(session, sql); // the session has the tier commit first, if it reads
    } catch (TimelakeException e) {
      if (writes(sql)) {
        IngestMonitor.of(lake).refused("PostgreSQL", forClient(e.getMessage()));
      }
      throw e;
    }
    recordWrite(result, "PostgreSQL");
    return result;
  }

  /** Whether {@code sql} is an INSERT (what the ingest view counts refusals of). */
  private static boolean writes(String sql) {
    List<dev.timelake.engine.SqlLexer.Token> tokens =
        dev.timelake.engine.SqlLexer.tokens(sql).tokens();
    return !tokens.isEmpty() && (tokens.get(0).is("INSERT") || tokens.get(0).is("UPSERT"));
  }

  /** Counts a committed append in the ingest view. */
  private void recordWrite(QueryResult result, String source) {
    result
        .append()
        .ifPresent(
            append ->
                append
                    .table()
                    .ifPresent(
                        table -> IngestMonitor.of(lake).written(table, append.rows(), source)));
  }

  @Override
  public void run() {
    // A client gets the login timeout in all to log in, however slowly it sends; afterwards it may
    // stay idle as long as it likes. The socket is closed when the deadline passes.
    java.util.concurrent.ScheduledFuture<?> deadline =
        timer.schedule(
            this::closeQuietly,
            limits.loginTimeout().toMillis(),
            java.util.concurrent.TimeUnit.MILLISECONDS);
    try {
      socket.setSoTimeout((int) limits.loginTimeout().toMillis());
      PgLogin login = new PgLogin(socket, tls, credentials, cancels, limits);
      Optional<String> user;
      try {
        user = login.run();
      } catch (PgMessages.ProtocolException e) {
        login.fatal("08P01", e.getMessage());
        return;
      } finally {
        socket = login.socket();
        in = login.in();
        out = login.out();
        endLogin();
      }
      if (user.isEmpty() || !deadline.cancel(false)) {
        return;
      }
      greet(user.get(), login.startup());
      socket.setSoTimeout(0);
      serve(in);
    } catch (IOException e) {
      // The client went away (or its TLS handshake failed, or its login took too long).
    } finally {
      endLogin();
      deadline.cancel(false);
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
      if (session != null) {
        cancels.unregister(key);
        session.close();
      }
    }
  }

  private void closeQuietly() {
    try {
      socket.close();
    } catch (IOException e) {
      // closed anyway
    }
  }

  /** Opens the session of a client logged in as {@code user} and tells it the server's settings. */
  private void greet(String user, Map<String, String> startup) throws IOException {
    session = lake.newSession(credentials.accessOf(user));
    HotTier.of(lake)
        .ifPresent(
            tier -> {
              // Pipelined INSERTs share a force, done before any answer leaves for the client.
              HotTier.SessionHold hold = tier.heldWritesForcedBeforeAnswering("PostgreSQL");
              session.holdWritesIn(hold);
              out.beforeSending(hold::forcePending);
            });
    out.begin('R').int32(0).end(); // AuthenticationOk
    parameter("server_version", "16.0 (Timelake)");
    parameter("server_encoding", "UTF8");
    parameter("client_encoding", "UTF8");
    parameter("DateStyle", "ISO, MDY");
    parameter("TimeZone", "UTC");
    parameter("integer_datetimes", "on");
    parameter("standard_conforming_strings", "on");
    parameter("application_name", startup.getOrDefault("application_name", ""));
    out.begin('K').int32(key).int32(secret).end();
    cancels.register(key, secret, session);
    ready();
  }

  private void parameter(String name, String value) {
    out.begin('S').string(name).string(value).end();
  }

  private void serve(DataInputStream in) throws IOException {
    PgExtendedQuery extended = new PgExtendedQuery(out, session, this::timed);
    while (true) {
      PgMessages.Message message = PgMessages.read(in);
      if (message == null || message.type() == 'X') {
        return;
      }
      PgMessages.Reader body = new PgMessages.Reader(message.body());
      char type = message.type();
      if (type == 'S') {
        failedUntilSync = false;
        ready();
        continue;
      }
      if (failedUntilSync && "PBDECH".indexOf(type) >= 0) {
        continue; // after an error, the extended protocol skips to the next Sync
      }
      try {
        switch (type) {
          case 'Q' -> simpleQuery(in, body.string());
          case 'P' -> extended.parse(body);
          case 'B' -> extended.bind(body);
          case 'D' -> extended.describe(body);
          case 'E' -> extended.execute(body);
          case 'C' -> extended.close(body);
          case 'H' -> out.flush();
          default -> {
            error("08P01", "Unexpected message type '" + type + "'");
            out.flush();
            return;
          }
        }
      } catch (TimelakeException e) {
        failExtended(e.sqlState(), e.getMessage());
      } catch (PgMessages.ProtocolException e) {
        error("08P01", e.getMessage());
        out.flush();
        return;
      } catch (PgCopyStatement.UnsupportedCopyException e) {
        failExtended("0A000", e.getMessage());
      } catch (IllegalArgumentException e) {
        failExtended("08P01", e.getMessage()); // the client named what does not exist
      } catch (RuntimeException e) {
        failExtended("XX000", internal(e));
      }
    }
  }

  private static final System.Logger LOG = System.getLogger(PgConnection.class.getName());

  /**
   * What a client is told of a failure Timelake did not expect: that it happened, not Java's own
   * text (an index out of bounds tells the client nothing); the server's log has the details.
   */
  static String internal(RuntimeException e) {
    LOG.log(System.Logger.Level.WARNING, "A statement failed unexpectedly", e);
    return "Internal error ("
        + e.getClass().getSimpleName()
        + "); the statement changed nothing it had not committed, and the server's log has the"
        + " details";
  }

  private void failExtended(String state, String message) {
    error(state, message);
    failedUntilSync = true;
  }

  /** Runs each statement of {@code text}; the first failure ends the query string. */
  private void simpleQuery(DataInputStream in, String text) throws IOException {
    List<String> statements = StatementSplitter.statements(text);
    if (statements.isEmpty()) {
      out.begin('I').end(); // EmptyQueryResponse
    }
    int from = 0;
    for (String statement : statements) {
      int at = text.indexOf(statement, from);
      if (at >= 0) {
        from = at + statement.length();
      }
      if (!run(in, statement, at < 0 ? -1 : text.codePointCount(0, at))) {
        break;
      }
    }
    ready();
  }

  /**
   * Runs {@code sql}, which starts {@code offset} characters (code points, as PostgreSQL counts
   * them) into the query string; -1: not known.
   */
  private boolean run(DataInputStream in, String sql, int offset) throws IOException {
    Optional<PgCopyStatement> copy;
    try {
      copy = PgCopyParser.parse(sql);
    } catch (PgCopyStatement.UnsupportedCopyException e) {
      error("0A000", e.getMessage());
      return false;
    } catch (TimelakeException e) {
      error(e.sqlState(), e.getMessage()); // a table name that cannot be one
      return false;
    }
    if (copy.isPresent() && copy.get() instanceof PgCopyStatement.FromClient fromClient) {
      return copyIn(in, new PgCopy(fromClient));
    }
    if (copy.isPresent() && copy.get() instanceof PgCopyStatement.ToClient toClient) {
      return copyOut(toClient);
    }
    return answered(
        sql,
        offset,
        () -> {
          try (QueryResult result = timed(sql)) {
            PgResults.notices(out, result);
            if (result.hasRows()) {
              PgResults.sendRows(out, result, session.zoneId());
            } else {
              out.begin('C').string(PgResults.tag(result)).end();
            }
          }
        });
  }

  /**
   * COPY … TO STDOUT: the query runs in the session like any SELECT the client sends (its role,
   * namespaces, routing and copies removed), its rows streamed as CopyData.
   */
  private boolean copyOut(PgCopyStatement.ToClient copy) throws IOException {
    return answered(
        null,
        -1,
        () -> {
          try (QueryResult result = timed(PgCopyOut.query(lake, copy))) {
            PgResults.notices(out, result);
            PgCopyOut.send(out, result, copy, session.zoneId());
          }
        });
  }

  /** What a statement sends its client, which may fail. */
  private interface Answer {
    void send() throws IOException;
  }

  /**
   * Sends {@code answer}; a failure is answered with an ErrorResponse (Timelake's own with its
   * SQLSTATE and, when found, where it points in {@code sql}, which starts at {@code offset} of the
   * query string; any other as an internal error without Java's text). False when it failed.
   */
  private boolean answered(String sql, int offset, Answer answer) throws IOException {
    try {
      answer.send();
      return true;
    } catch (TimelakeException e) {
      int position =
          sql == null || offset < 0
              ? 0
              : StatementPosition.of(sql, e)
                  .map(p -> offset + sql.codePointCount(0, p.offset()) + 1)
                  .orElse(0);
      error(e.sqlState(), e.getMessage(), position);
      return false;
    } catch (RuntimeException e) {
      error("XX000", internal(e));
      return false;
    }
  }

  /** COPY … FROM STDIN: the rows appended as one commit, or nothing on CopyFail or an error. */
  private boolean copyIn(DataInputStream in, PgCopy copy) throws IOException {
    try {
      Optional<QueryResult> appended = copy.receive(lake, session, in, out, limits.copyBytes());
      if (appended.isEmpty()) {
        error(
            "57014",
            "COPY into " + copy.table() + " was cancelled by the client; nothing appended");
        return false;
      }
      try (QueryResult result = appended.get()) {
        recordWrite(result, "PostgreSQL COPY");
        PgResults.notices(out, result);
        out.begin('C').string("COPY " + result.rowCount().orElse(0)).end();
      }
      return true;
    } catch (TimelakeException e) {
      IngestMonitor.of(lake).refused("PostgreSQL COPY", forClient(e.getMessage()));
      error(e.sqlState(), e.getMessage());
      return false;
    }
  }

  private void error(String state, String message) {
    error(state, message, 0);
  }

  /** An ErrorResponse; {@code position} (1-based in the query string, 0: none) for the caret. */
  private void error(String state, String message, int position) {
    String text = forClient(message);
    out.errorResponse("ERROR", state, text.lines().findFirst().orElse(""), text, position);
  }

  /**
   * Where the lake lives on the server's disk is the operator's business, not the client's: a table
   * the client named that does not exist is reported "in the lake".
   */
  private String forClient(String message) {
    return message == null ? "" : message.replace(lake.description(), "the lake");
  }

  /** ReadyForQuery, with the session's transaction status (idle, in a transaction, failed). */
  private void ready() throws IOException {
    char status = session == null ? 'I' : session.transactionState().status();
    out.begin('Z').int8(status).end();
    out.flush();
  }
}

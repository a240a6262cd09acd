package dev.timelake.server;

import dev.timelake.Lake;
import dev.timelake.NotFoundException;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.StatementKind;
import dev.timelake.TimelakeException;
import dev.timelake.ValidationException;
import dev.timelake.engine.StatementSplitter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One client of the PostgreSQL protocol: the startup (no SSL, no password: the server listens on
 * loopback by default), then simple queries, each statement of a query string run in the
 * connection's own Timelake {@link Session} and answered with its rows in text format and a command
 * tag. The extended protocol (Parse, Bind, Execute) is answered with an error that says so, until
 * Sync.
 */
final class PgConnection implements Runnable {
  private static final int PROTOCOL_3 = 196608;
  private static final int SSL_REQUEST = 80877103;
  private static final int GSS_REQUEST = 80877104;
  private static final int CANCEL_REQUEST = 80877102;

  /** {@code SET [SESSION] name =|TO value}: a PostgreSQL setting of the client's session. */
  private static final Pattern CLIENT_SETTING =
      Pattern.compile("(?is)\\s*SET\\s+(?:SESSION\\s+)?([a-z_]+)\\s*(?:=|\\s+TO\\s).*");

  /** The settings PostgreSQL clients send that mean nothing to Timelake (answered "SET"). */
  private static final Set<String> CLIENT_SETTINGS =
      Set.of(
          "application_name",
          "extra_float_digits",
          "client_encoding",
          "datestyle",
          "intervalstyle",
          "client_min_messages",
          "statement_timeout",
          "lock_timeout",
          "idle_in_transaction_session_timeout",
          "bytea_output",
          "jit");

  private final Socket socket;
  private final Lake lake;
  private final Map<String, String> startup = new LinkedHashMap<>();
  private PgMessages.Writer out;
  private Session session;

  PgConnection(Socket socket, Lake lake) {
    this.socket = socket;
    this.lake = lake;
  }

  @Override
  public void run() {
    try (socket) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
      out = new PgMessages.Writer(new BufferedOutputStream(socket.getOutputStream()));
      if (!startUp(in)) {
        return;
      }
      serve(in);
    } catch (IOException e) {
      // The client went away; nothing to answer.
    } finally {
      if (session != null) {
        session.close();
      }
    }
  }

  /** Reads the startup packets and greets the client; false when it asked only to cancel. */
  private boolean startUp(DataInputStream in) throws IOException {
    while (true) {
      PgMessages.Reader startPacket = new PgMessages.Reader(PgMessages.readStartup(in).body());
      int code = startPacket.int32();
      if (code == SSL_REQUEST || code == GSS_REQUEST) {
        out.raw('N'); // no encryption: the server listens on loopback unless told otherwise
        continue;
      }
      if (code == CANCEL_REQUEST) {
        return false;
      }
      if (code != PROTOCOL_3) {
        error(
            "0A000",
            "Protocol version "
                + (code >> 16)
                + "."
                + (code & 0xffff)
                + " is not supported (3.0 is)");
        out.flush();
        return false;
      }
      while (startPacket.hasMore()) {
        String name = startPacket.string();
        if (name.isEmpty()) {
          break;
        }
        startup.put(name, startPacket.string());
      }
      break;
    }
    session = lake.newSession();
    out.begin('R').int32(0).end(); // AuthenticationOk
    parameter("server_version", "16.0 (Timelake)");
    parameter("server_encoding", "UTF8");
    parameter("client_encoding", "UTF8");
    parameter("DateStyle", "ISO, MDY");
    parameter("TimeZone", "UTC");
    parameter("integer_datetimes", "on");
    parameter("standard_conforming_strings", "on");
    parameter("application_name", startup.getOrDefault("application_name", ""));
    out.begin('K')
        .int32((int) ProcessHandle.current().pid())
        .int32(ThreadLocalRandom.current().nextInt())
        .end();
    ready();
    return true;
  }

  private void parameter(String name, String value) {
    out.begin('S').string(name).string(value).end();
  }

  private void serve(DataInputStream in) throws IOException {
    boolean skippingToSync = false;
    while (true) {
      PgMessages.Message message = PgMessages.read(in);
      if (message == null || message.type() == 'X') {
        return;
      }
      switch (message.type()) {
        case 'Q' -> simpleQuery(new PgMessages.Reader(message.body()).string());
        case 'S' -> {
          skippingToSync = false;
          ready();
        }
        case 'H' -> out.flush();
        case 'P', 'B', 'D', 'E', 'C', 'F' -> {
          if (!skippingToSync) {
            error(
                "0A000",
                "The extended query protocol (Parse/Bind/Execute) is not supported yet: use the"
                    + " simple query protocol (psql does; for JDBC, preferQueryMode=simple)");
            out.flush();
            skippingToSync = true;
          }
        }
        default -> {
          error("08P01", "Unexpected message type '" + message.type() + "'");
          out.flush();
          return;
        }
      }
    }
  }

  /** Runs each statement of {@code text}; the first failure ends the query string. */
  private void simpleQuery(String text) throws IOException {
    List<String> statements = StatementSplitter.statements(text);
    if (statements.isEmpty()) {
      out.begin('I').end(); // EmptyQueryResponse
    }
    for (String statement : statements) {
      if (!run(statement)) {
        break;
      }
    }
    ready();
  }

  private boolean run(String sql) {
    Matcher set = CLIENT_SETTING.matcher(sql);
    if (set.matches() && CLIENT_SETTINGS.contains(set.group(1).toLowerCase(Locale.ROOT))) {
      // What PostgreSQL drivers set on connecting; Timelake keeps UTC, UTF-8 and ISO dates.
      out.begin('C').string("SET").end();
      return true;
    }
    try (QueryResult result = session.sql(sql)) {
      if (result.hasRows()) {
        sendRows(result);
      } else {
        out.begin('C').string(tag(result)).end();
      }
      return true;
    } catch (TimelakeException e) {
      error(state(e), e.getMessage());
      return false;
    } catch (RuntimeException e) {
      error("XX000", String.valueOf(e.getMessage()));
      return false;
    }
  }

  private void sendRows(QueryResult result) {
    List<Integer> oids = new ArrayList<>();
    try {
      ResultSetMetaData metadata = result.resultSet().getMetaData();
      int columns = metadata.getColumnCount();
      out.begin('T').int16(columns);
      for (int i = 1; i <= columns; i++) {
        int oid = PgTypes.oid(metadata.getColumnTypeName(i));
        oids.add(oid);
        out.string(metadata.getColumnLabel(i))
            .int32(0)
            .int16(0)
            .int32(oid)
            .int16(PgTypes.size(oid))
            .int32(-1)
            .int16(0);
      }
      out.end();
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot read the result's columns: " + e.getMessage(), e);
    }
    long rows = 0;
    while (result.next()) {
      out.begin('D').int16(oids.size());
      for (int i = 0; i < oids.size(); i++) {
        byte[] value = PgTypes.text(result.value(i), oids.get(i));
        if (value == null) {
          out.int32(-1);
        } else {
          out.int32(value.length).bytes(value);
        }
      }
      out.end();
      rows++;
    }
    out.begin('C').string("SELECT " + rows).end();
  }

  /** The command tag PostgreSQL clients expect for a statement without rows. */
  private static String tag(QueryResult result) {
    long rows = result.rowCount().orElse(0);
    StatementKind kind = result.kind();
    return switch (kind) {
      case INSERT, UPSERT -> "INSERT 0 " + rows;
      case CREATE_TABLE -> "CREATE TABLE";
      case DROP_TABLE -> "DROP TABLE";
      case CREATE_ROLLUP -> "CREATE MATERIALIZED VIEW";
      case REFRESH_ROLLUP -> "REFRESH MATERIALIZED VIEW";
      case DROP_ROLLUP -> "DROP MATERIALIZED VIEW";
      case SET -> "SET";
      default -> kind.name().toUpperCase(Locale.ROOT).replace('_', ' ');
    };
  }

  private static String state(TimelakeException e) {
    if (e instanceof NotFoundException) {
      return "42P01";
    }
    return e instanceof ValidationException ? "22023" : "XX000";
  }

  private void error(String state, String message) {
    out.begin('E')
        .int8('S')
        .string("ERROR")
        .int8('V')
        .string("ERROR")
        .int8('C')
        .string(state)
        .int8('M')
        .string(message == null ? "" : message.lines().findFirst().orElse(""))
        .int8('D')
        .string(message == null ? "" : message)
        .int8(0)
        .end();
  }

  private void ready() throws IOException {
    out.begin('Z').int8('I').end();
    out.flush();
  }
}

package dev.timelake.server;

import dev.timelake.QueryResult;
import dev.timelake.ResultColumn;
import dev.timelake.Session;
import dev.timelake.engine.StatementSplitter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The extended query protocol of one logged-in connection: Parse, Bind, Describe, Execute and
 * Close, with the connection's prepared statements and portals by name, and {@code $n} parameters
 * placed as literals ({@link PgParameters}). Each message's answer is written to the connection's
 * output, not flushed; the connection runs the Sync and the error handling around it.
 *
 * <p>A message naming a statement or portal that does not exist throws {@link
 * IllegalArgumentException}; a failed statement throws the session's exception. One thread (the
 * connection's) uses it.
 */
final class PgExtendedQuery {
  private final PgMessages.Writer out;
  private final Session session;
  private final Function<String, QueryResult> runner;
  private final Map<String, Prepared> prepared = new HashMap<>();
  private final Map<String, Portal> portals = new HashMap<>();

  /**
   * The protocol on {@code session}, answering on {@code out}; {@code runner} runs a bound
   * statement's SQL (in the session, within the server's statement timeout).
   */
  PgExtendedQuery(PgMessages.Writer out, Session session, Function<String, QueryResult> runner) {
    this.out = out;
    this.session = session;
    this.runner = runner;
  }

  /** Parse: a statement with {@code $n} parameters and the types the client gives them. */
  void parse(PgMessages.Reader body) {
    String name = body.string();
    String sql = body.string();
    int count = body.int16();
    List<Integer> types = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      types.add(body.int32());
    }
    List<String> statements = StatementSplitter.statements(sql);
    if (statements.size() > 1) {
      throw new IllegalArgumentException(
          "A prepared statement holds one statement, this one has " + statements.size());
    }
    if (!statements.isEmpty() && PgCopyParser.parse(statements.get(0)).isPresent()) {
      throw new PgCopyStatement.UnsupportedCopyException(
          "COPY … FROM STDIN and TO STDOUT run in the simple query protocol (pgjdbc's CopyManager"
              + " and psql's \\copy use it), not as a prepared statement");
    }
    prepared.put(
        name,
        new Prepared(statements.isEmpty() ? "" : statements.get(0), PgParameters.of(sql), types));
    out.begin('1').end(); // ParseComplete
  }

  /** Bind: a portal of a prepared statement with its parameter values as literals. */
  void bind(PgMessages.Reader body) {
    String portal = body.string();
    String name = body.string();
    Prepared statement = prepared.get(name);
    if (statement == null) {
      throw new IllegalArgumentException("No prepared statement named '" + name + "'");
    }
    int formatCount = body.int16();
    int[] formats = new int[formatCount];
    for (int i = 0; i < formatCount; i++) {
      formats[i] = body.int16();
    }
    int count = body.int16();
    List<String> literals = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      byte[] value = body.bytes(body.int32());
      int format = formatCount == 0 ? 0 : formats[formatCount == 1 ? 0 : i];
      int oid = i < statement.types().size() ? statement.types().get(i) : 0;
      literals.add(PgParameters.literal(value, oid, format));
    }
    int resultCount = body.int16();
    int[] resultFormats = new int[resultCount];
    for (int i = 0; i < resultCount; i++) {
      resultFormats[i] = body.int16();
    }
    closePortal(portal);
    portals.put(portal, new Portal(statement.parameters().render(literals), resultFormats));
    out.begin('2').end(); // BindComplete
  }

  /** Describe: a statement's parameter types and columns, or a portal's columns. */
  void describe(PgMessages.Reader body) {
    char kind = (char) body.int8();
    String name = body.string();
    if (kind == 'S') {
      Prepared statement = prepared.get(name);
      if (statement == null) {
        throw new IllegalArgumentException("No prepared statement named '" + name + "'");
      }
      int count = statement.parameters().count();
      out.begin('t').int16(count);
      for (int i = 0; i < count; i++) {
        int oid = i < statement.types().size() ? statement.types().get(i) : 0;
        out.int32(oid == 0 ? PgTypes.TEXT : oid);
      }
      out.end();
      List<String> nulls = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        nulls.add("NULL");
      }
      Optional<List<ResultColumn>> columns =
          statement.sql().isEmpty()
              ? Optional.empty()
              : session.describe(statement.parameters().render(nulls));
      if (columns.isEmpty()) {
        out.begin('n').end(); // NoData
      } else {
        List<Integer> oids = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (ResultColumn column : columns.get()) {
          labels.add(column.name());
          oids.add(PgTypes.oid(column.type()));
        }
        PgResults.rowDescription(out, labels, oids, new int[0]);
      }
      return;
    }
    Portal portal = requirePortal(name);
    portal.run(runner);
    if (portal.result.hasRows()) {
      PgResults.rowDescription(out, portal.labels(), portal.oids(), portal.formats);
    } else {
      out.begin('n').end();
    }
  }

  /** Execute: a portal's rows (all of them) and its command tag. */
  void execute(PgMessages.Reader body) {
    Portal portal = requirePortal(body.string());
    if (portal.sql.isBlank()) {
      out.begin('I').end();
      return;
    }
    portal.run(runner);
    PgResults.notices(out, portal.result);
    if (portal.result.hasRows()) {
      PgResults.dataRows(out, portal.result, portal.oids(), portal.formats, session.zoneId());
    } else {
      out.begin('C').string(PgResults.tag(portal.result)).end();
    }
    portal.finish();
  }

  /** Close: a prepared statement or a portal, which need not exist. */
  void close(PgMessages.Reader body) {
    char kind = (char) body.int8();
    String name = body.string();
    if (kind == 'S') {
      prepared.remove(name);
    } else {
      closePortal(name);
    }
    out.begin('3').end(); // CloseComplete
  }

  private Portal requirePortal(String name) {
    Portal portal = portals.get(name);
    if (portal == null) {
      throw new IllegalArgumentException("No portal named '" + name + "'");
    }
    return portal;
  }

  private void closePortal(String name) {
    Portal portal = portals.remove(name);
    if (portal != null) {
      portal.finish();
    }
  }

  /** A parsed statement: its text, its placeholders and the parameter types the client gave. */
  private record Prepared(String sql, PgParameters parameters, List<Integer> types) {}

  /** A bound statement, run at its first Describe or Execute; its result kept until then. */
  private static final class Portal {
    final String sql;
    final int[] formats;
    QueryResult result;

    Portal(String sql, int[] formats) {
      this.sql = sql;
      this.formats = formats;
    }

    void run(java.util.function.Function<String, QueryResult> runner) {
      if (result == null) {
        result = runner.apply(sql);
      }
    }

    List<String> labels() {
      return result.columnNames();
    }

    List<Integer> oids() {
      return result.columnTypes().stream().map(PgTypes::oid).toList();
    }

    void finish() {
      if (result != null) {
        result.close();
      }
    }
  }
}

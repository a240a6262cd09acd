package dev.timelake.server;

import dev.timelake.TableName;
import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import dev.timelake.engine.SqlText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a COPY between the client and the server from the statement's tokens ({@link SqlLexer}), in
 * the spellings psql's {@code \copy} and pgjdbc's CopyManager send:
 *
 * <pre>
 * COPY table [(column, …)] FROM STDIN [WITH] (FORMAT csv [, HEADER [bool]]) | CSV [HEADER]
 * COPY table [(column, …)] TO STDOUT [[WITH] (FORMAT text|csv [, HEADER [bool]]) | CSV [HEADER]]
 * COPY (query) TO STDOUT [options as above]
 * </pre>
 *
 * Names are folded to lower case unless quoted, as PostgreSQL does. A COPY from or to a file is not
 * read here (the session refuses it).
 */
final class PgCopyParser {
  /** The words a query in {@code COPY (…) TO STDOUT} starts with. */
  private static final Set<String> QUERY_STARTS =
      Set.of("SELECT", "WITH", "VALUES", "TABLE", "FROM", "(");

  /** PostgreSQL's options this server does not take: it writes and reads their defaults only. */
  private static final Set<String> DEFAULTS_ONLY =
      Set.of(
          "DELIMITER",
          "NULL",
          "QUOTE",
          "ESCAPE",
          "ENCODING",
          "FORCE",
          "FORCE_QUOTE",
          "FORCE_NOT_NULL",
          "FORCE_NULL",
          "DEFAULT",
          "FREEZE",
          "ON_ERROR",
          "LOG_VERBOSITY");

  private final String sql;
  private final List<Token> tokens;

  /** The index of the FROM of FROM STDIN, or the TO of TO STDOUT. */
  private final int direction;

  private final boolean toClient;
  private int position = 1;

  private PgCopyParser(String sql, List<Token> tokens, int direction) {
    this.sql = sql;
    this.tokens = tokens;
    this.direction = direction;
    this.toClient = tokens.get(direction).is("TO");
  }

  /**
   * The COPY to or from the client that {@code sql} is; empty for any other statement.
   *
   * @throws PgCopyStatement.UnsupportedCopyException for one this server cannot run as written
   */
  static Optional<PgCopyStatement> parse(String sql) {
    SqlLexer.Tokens lexed = SqlLexer.tokens(sql);
    List<Token> tokens = withoutTrailingSemicolons(lexed.tokens());
    if (lexed.unterminated() || tokens.isEmpty() || !tokens.get(0).is("COPY")) {
      return Optional.empty();
    }
    int direction = direction(tokens);
    if (direction < 0) {
      return Optional.empty();
    }
    PgCopyParser parser = new PgCopyParser(sql, tokens, direction);
    return Optional.of(symbol(parser.peek(), "(") ? parser.querySource() : parser.tableSource());
  }

  /** The index of FROM STDIN or TO STDOUT outside parentheses; -1 when there is none. */
  private static int direction(List<Token> tokens) {
    int depth = 0;
    for (int i = 1; i + 1 < tokens.size(); i++) {
      Token token = tokens.get(i);
      depth += symbol(token, "(") ? 1 : symbol(token, ")") ? -1 : 0;
      Token next = tokens.get(i + 1);
      boolean fromStdin = token.is("FROM") && next.is("STDIN");
      boolean toStdout = token.is("TO") && next.is("STDOUT");
      if (depth == 0 && (fromStdin || toStdout)) {
        return i;
      }
    }
    return -1;
  }

  private PgCopyStatement querySource() {
    int close = closing(position);
    if (!toClient) {
      throw unsupported(
          "COPY (query) FROM STDIN cannot be: the client's data goes into a table, COPY table"
              + " [(columns)] FROM STDIN (FORMAT csv)");
    }
    Token first = close > position + 1 ? tokens.get(position + 1) : tokens.get(close);
    String start = first.kind() == Kind.WORD ? first.value() : first.text();
    if (close == position + 1 || !QUERY_STARTS.contains(start)) {
      throw unsupported(
          "COPY (…) TO STDOUT copies the rows of a query: put a SELECT inside the parentheses"
              + " (found '"
              + first.text()
              + "')");
    }
    String query = sql.substring(tokens.get(position).end(), tokens.get(close).start()).strip();
    position = close + 1;
    requireDirection();
    Options options = options();
    return new PgCopyStatement.ToClient(
        query, "a query", options.format(), options.header(), Optional.empty());
  }

  private PgCopyStatement tableSource() {
    List<String> parts = new ArrayList<>(List.of(name()));
    while (symbol(peek(), ".")) {
      position++;
      parts.add(name());
    }
    if (parts.size() > 2) {
      throw unsupported(
          "COPY names the table '"
              + String.join(".", parts)
              + "': expected namespace.table or table");
    }
    List<String> columns = symbol(peek(), "(") ? columns() : List.of();
    requireDirection();
    Options options = options();
    String source = String.join(".", parts);
    TableName table =
        parts.size() == 1
            ? new TableName(TableName.DEFAULT_NAMESPACE, parts.get(0))
            : new TableName(parts.get(0), parts.get(1));
    if (toClient) {
      String select =
          "SELECT "
              + (columns.isEmpty() ? "*" : SqlText.identifiers(columns))
              + " FROM "
              + SqlText.qualified(parts.toArray(String[]::new));
      return new PgCopyStatement.ToClient(
          select,
          source,
          options.format(),
          options.header(),
          columns.isEmpty() ? Optional.of(table) : Optional.empty());
    }
    if (options.format() != PgCopyFormat.CSV) {
      throw unsupported(
          "COPY … FROM STDIN reads CSV only: add (FORMAT csv [, HEADER]), or CSV [HEADER] after"
              + " STDIN (psql: \\copy t FROM 'file.csv' CSV HEADER)");
    }
    return new PgCopyStatement.FromClient(table, columns, options.header());
  }

  /** {@code (name, …)} from the opening parenthesis at the current position. */
  private List<String> columns() {
    position++;
    List<String> columns = new ArrayList<>(List.of(name()));
    while (symbol(peek(), ",")) {
      position++;
      columns.add(name());
    }
    expect(")");
    return columns;
  }

  /** What FORMAT and HEADER say, the rest of the statement after FROM STDIN or TO STDOUT. */
  private record Options(PgCopyFormat format, boolean header) {}

  private Options options() {
    position += 2; // FROM STDIN, TO STDOUT
    if (peek() != null && peek().is("WITH")) {
      position++;
    }
    Options options = symbol(peek(), "(") ? listedOptions() : legacyOptions();
    if (peek() != null) {
      throw unsupported(
          "COPY has '" + peek().text() + "' where its options should end; " + grammar());
    }
    return options;
  }

  /** {@code (FORMAT csv, HEADER true)}: PostgreSQL 9.0's spelling, pgjdbc's and psql's. */
  private Options listedOptions() {
    position++;
    PgCopyFormat format = PgCopyFormat.TEXT;
    boolean header = false;
    while (true) {
      String option = word();
      String value = symbol(peek(), ",") || symbol(peek(), ")") ? "" : value();
      switch (option) {
        case "FORMAT" -> format = format(value);
        case "HEADER" -> header = value.isEmpty() || header(value);
        default -> throw unsupportedOption(option);
      }
      if (!symbol(peek(), ",")) {
        break;
      }
      position++;
    }
    expect(")");
    return new Options(format, header);
  }

  /** {@code [BINARY] [CSV [HEADER]]}: the spelling before PostgreSQL 9.0, still sent by psql. */
  private Options legacyOptions() {
    PgCopyFormat format = PgCopyFormat.TEXT;
    boolean header = false;
    while (peek() != null && peek().kind() == Kind.WORD) {
      String option = word();
      switch (option) {
        case "BINARY" -> format = format(option);
        case "CSV" -> format = PgCopyFormat.CSV;
        case "HEADER" -> header = true;
        default -> throw unsupportedOption(option);
      }
    }
    return new Options(format, header);
  }

  private static PgCopyFormat format(String value) {
    return switch (value.toUpperCase(Locale.ROOT)) {
      case "TEXT" -> PgCopyFormat.TEXT;
      case "CSV" -> PgCopyFormat.CSV;
      case "BINARY" ->
          throw unsupported("COPY in the binary format is not supported: use text or CSV");
      default -> throw unsupported("COPY has no format '" + value + "': use text or CSV");
    };
  }

  private boolean header(String value) {
    return switch (value.toUpperCase(Locale.ROOT)) {
      case "TRUE", "ON", "1" -> true;
      case "FALSE", "OFF", "0" -> false;
      case "MATCH" -> {
        if (toClient) {
          throw unsupported("HEADER MATCH checks the data of COPY … FROM; COPY … TO writes one");
        }
        yield true;
      }
      default -> throw unsupported("HEADER takes true or false, not '" + value + "'; " + grammar());
    };
  }

  private PgCopyStatement.UnsupportedCopyException unsupportedOption(String option) {
    if (DEFAULTS_ONLY.contains(option)) {
      return unsupported(
          "COPY … FROM STDIN and TO STDOUT take PostgreSQL's default delimiter, NULL, quote,"
              + " escape and encoding only; the option "
              + option
              + " is not supported: "
              + grammar());
    }
    return unsupported("COPY has no option " + option + " here; " + grammar());
  }

  private String grammar() {
    return toClient
        ? "expected COPY table [(columns)] TO STDOUT, or COPY (query) TO STDOUT, with (FORMAT text"
            + " | csv [, HEADER]) or CSV [HEADER]"
        : "expected COPY table [(columns)] FROM STDIN (FORMAT csv [, HEADER]) or CSV [HEADER]";
  }

  /** A name: folded to lower case unless quoted. */
  private String name() {
    Token token = peek();
    if (position >= direction
        || (token.kind() != Kind.WORD && token.kind() != Kind.QUOTED_IDENTIFIER)) {
      throw unsupported("COPY has '" + token.text() + "' where a name should be; " + grammar());
    }
    position++;
    return token.kind() == Kind.WORD ? token.text().toLowerCase(Locale.ROOT) : token.value();
  }

  private String word() {
    Token token = peek();
    if (token == null || token.kind() != Kind.WORD) {
      throw unsupported(
          "COPY has "
              + (token == null ? "nothing" : "'" + token.text() + "'")
              + " where an option should be; "
              + grammar());
    }
    position++;
    return token.value();
  }

  /** An option's value: a word, a number or a string, without quotes. */
  private String value() {
    Token token = peek();
    if (token == null) {
      throw unsupported("COPY ends inside its options; " + grammar());
    }
    position++;
    if (token.kind() == Kind.STRING && token.text().startsWith("'")) {
      return token.text().substring(1, token.text().length() - 1).replace("''", "'");
    }
    return token.text();
  }

  private void requireDirection() {
    if (position != direction) {
      throw unsupported(
          "COPY has '" + tokens.get(position).text() + "' before its direction; " + grammar());
    }
  }

  private void expect(String symbol) {
    if (!symbol(peek(), symbol)) {
      throw unsupported(
          "COPY has "
              + (peek() == null ? "nothing" : "'" + peek().text() + "'")
              + " where '"
              + symbol
              + "' should be; "
              + grammar());
    }
    position++;
  }

  /** The index of the parenthesis closing the one at {@code open}. */
  private int closing(int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      depth += symbol(tokens.get(i), "(") ? 1 : symbol(tokens.get(i), ")") ? -1 : 0;
      if (depth == 0) {
        return i;
      }
    }
    throw unsupported("COPY (query) has no closing parenthesis; " + grammar());
  }

  private Token peek() {
    return position < tokens.size() ? tokens.get(position) : null;
  }

  private static boolean symbol(Token token, String symbol) {
    return token != null && token.kind() == Kind.SYMBOL && token.text().equals(symbol);
  }

  private static List<Token> withoutTrailingSemicolons(List<Token> tokens) {
    int end = tokens.size();
    while (end > 0 && tokens.get(end - 1).kind() == Kind.SEMICOLON) {
      end--;
    }
    return tokens.subList(0, end);
  }

  private static PgCopyStatement.UnsupportedCopyException unsupported(String message) {
    return new PgCopyStatement.UnsupportedCopyException(message);
  }
}

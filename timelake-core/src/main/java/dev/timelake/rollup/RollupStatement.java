package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rollup statements, which SQL parsers don't know: {@code CREATE MATERIALIZED ROLLUP [IF NOT
 * EXISTS] name AS SELECT … [WITH (…)]}, {@code REFRESH MATERIALIZED ROLLUP name} and {@code DROP
 * MATERIALIZED ROLLUP [IF EXISTS] name}. Only the statement's frame is read here; the SELECT is
 * parsed into a syntax tree by {@link RollupDefinitions}.
 */
public record RollupStatement(
    Kind kind, TableName name, boolean conditional, String select, String with) {
  /** Which statement. */
  public enum Kind {
    CREATE,
    REFRESH,
    DROP
  }

  private static final String NAME = "([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?)";
  private static final Pattern CREATE =
      Pattern.compile(
          "(?is)^\\s*CREATE\\s+MATERIALIZED\\s+ROLLUP\\s+(IF\\s+NOT\\s+EXISTS\\s+)?"
              + NAME
              + "\\s+AS\\s+(.+)$");
  private static final Pattern REFRESH =
      Pattern.compile("(?is)^\\s*REFRESH\\s+MATERIALIZED\\s+ROLLUP\\s+" + NAME + "\\s*$");
  private static final Pattern DROP =
      Pattern.compile(
          "(?is)^\\s*DROP\\s+MATERIALIZED\\s+ROLLUP\\s+(IF\\s+EXISTS\\s+)?" + NAME + "\\s*$");
  private static final Pattern EXPLAIN =
      Pattern.compile("(?is)^\\s*EXPLAIN\\s+(REFRESH\\s+MATERIALIZED\\s+ROLLUP\\s+.*)$");
  private static final Pattern TRAILING_WITH =
      Pattern.compile("(?is)^(.*\\S)\\s+WITH\\s*\\((.*)\\)\\s*$");

  public RollupStatement {
    requireNonNull(kind, "kind is null");
    requireNonNull(name, "name is null");
    requireNonNull(select, "select is null");
    requireNonNull(with, "with is null");
  }

  /**
   * The refresh {@code sql} explains, if it is {@code EXPLAIN REFRESH MATERIALIZED ROLLUP name}: a
   * dry run that shows the refresh's plan.
   */
  public static Optional<RollupStatement> parseExplained(String sql) {
    Matcher explain = EXPLAIN.matcher(sql);
    return explain.matches() ? parse(explain.group(1)) : Optional.empty();
  }

  /** The statement, if {@code sql} is one of the rollup statements. */
  public static Optional<RollupStatement> parse(String sql) {
    if (EXPLAIN.matcher(sql).matches()) {
      return Optional.empty();
    }
    String upper = sql.trim().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
    if (!upper.contains("MATERIALIZED ROLLUP")) {
      return Optional.empty();
    }
    Matcher create = CREATE.matcher(sql);
    if (create.matches()) {
      String body = create.group(3).trim();
      String with = "";
      Matcher trailing = TRAILING_WITH.matcher(body);
      if (trailing.matches() && !trailing.group(1).toUpperCase(Locale.ROOT).endsWith(" AS")) {
        body = trailing.group(1);
        with = trailing.group(2);
      }
      return Optional.of(
          new RollupStatement(
              Kind.CREATE, TableName.parse(create.group(2)), create.group(1) != null, body, with));
    }
    Matcher refresh = REFRESH.matcher(sql);
    if (refresh.matches()) {
      return Optional.of(
          new RollupStatement(Kind.REFRESH, TableName.parse(refresh.group(1)), false, "", ""));
    }
    Matcher drop = DROP.matcher(sql);
    if (drop.matches()) {
      return Optional.of(
          new RollupStatement(
              Kind.DROP, TableName.parse(drop.group(2)), drop.group(1) != null, "", ""));
    }
    throw unreadable(sql);
  }

  /** The error for a statement about a rollup that is none of the three forms. */
  public static TimelakeException unreadable(String sql) {
    return TimelakeException.validation(
        "Cannot read rollup statement '%s' (expected CREATE MATERIALIZED ROLLUP [IF NOT EXISTS]"
            + " ns.name AS SELECT … [WITH (…)], REFRESH MATERIALIZED ROLLUP ns.name or DROP"
            + " MATERIALIZED ROLLUP [IF EXISTS] ns.name)",
        sql.strip());
  }
}

package dev.timelake.sql;

import dev.timelake.StatementKind;
import dev.timelake.TimelakeException;
import dev.timelake.engine.SqlLexer.Kind;
import dev.timelake.engine.SqlLexer.Token;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings PostgreSQL clients and drivers set, which are not DuckDB's: {@code
 * statement_timeout} is the session's (statements running longer are cancelled); the others ({@code
 * application_name}, {@code extra_float_digits}, {@code DateStyle}, …) are answered and change
 * nothing, since Timelake keeps UTF-8 and ISO dates.
 */
final class PostgresSettings {
  private PostgresSettings() {}

  /** Cancels statements past their session's timeout; one daemon thread for every session. */
  static final java.util.concurrent.ScheduledExecutorService TIMER =
      dev.timelake.engine.Watchdogs.named("timelake-statement-timeout");

  private static final Set<String> IGNORED =
      Set.of(
          "application_name",
          "extra_float_digits",
          "client_encoding",
          "datestyle",
          "intervalstyle",
          "client_min_messages",
          "lock_timeout",
          "idle_in_transaction_session_timeout",
          "bytea_output",
          "jit");

  private static final Pattern DURATION =
      Pattern.compile("(\\d+)\\s*(ms|s|sec|min|h|d)?", Pattern.CASE_INSENSITIVE);

  /**
   * Applies {@code SET [SESSION] name = value}, {@code SET name TO value} or {@code RESET name}
   * when {@code name} is one of these settings; empty for any other statement.
   *
   * @throws dev.timelake.ValidationException for a timeout that is not a duration
   */
  static StatementOutcome apply(List<Token> tokens, Consumer<Duration> statementTimeout) {
    int index = nameIndex(tokens);
    if (index < 0) {
      throw new IllegalArgumentException("not a PostgreSQL client setting: " + tokens);
    }
    if (settingName(tokens, index).equals("statement_timeout")) {
      statementTimeout.accept(
          tokens.get(0).is("RESET")
              ? Duration.ZERO
              : timeout(tokens.subList(index + 1, tokens.size())));
    }
    return StatementOutcome.message(StatementKind.SET, "SET");
  }

  /**
   * True for {@code SET [SESSION] name = value}, {@code SET name TO value} or {@code RESET name}
   * (tokens without final semicolons) when {@code name} is one of these settings.
   */
  static boolean isOne(List<Token> tokens) {
    return nameIndex(tokens) >= 0;
  }

  /** Where the setting's name is, or -1 when the tokens set none of these settings. */
  private static int nameIndex(List<Token> tokens) {
    if (tokens.size() < 2 || !(tokens.get(0).is("SET") || tokens.get(0).is("RESET"))) {
      return -1;
    }
    int index = tokens.get(1).is("SESSION") ? 2 : 1;
    if (index >= tokens.size() || tokens.get(index).kind() != Kind.WORD) {
      return -1;
    }
    String name = settingName(tokens, index);
    return name.equals("statement_timeout") || IGNORED.contains(name) ? index : -1;
  }

  private static String settingName(List<Token> tokens, int index) {
    return tokens.get(index).text().toLowerCase(Locale.ROOT);
  }

  /** The value after {@code =} or {@code TO}: milliseconds, or a number with a unit. */
  private static Duration timeout(List<Token> rest) {
    int from = !rest.isEmpty() && (rest.get(0).text().equals("=") || rest.get(0).is("TO")) ? 1 : 0;
    StringBuilder text = new StringBuilder();
    for (Token token : rest.subList(Math.min(from, rest.size()), rest.size())) {
      text.append(
          token.kind() == Kind.STRING
              ? token.text().substring(1, token.text().length() - 1)
              : token.text());
    }
    String value = text.toString().strip();
    if (value.equalsIgnoreCase("DEFAULT")) {
      return Duration.ZERO;
    }
    Matcher matcher = DURATION.matcher(value);
    if (!matcher.matches()) {
      throw TimelakeException.validation(
          "Invalid statement_timeout '%s' (expected milliseconds, or a number with ms, s, min, h"
              + " or d, e.g. '30s'; 0 for none)",
          value);
    }
    long amount = Long.parseLong(matcher.group(1));
    String unit = matcher.group(2) == null ? "ms" : matcher.group(2).toLowerCase(Locale.ROOT);
    return switch (unit) {
      case "s", "sec" -> Duration.ofSeconds(amount);
      case "min" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      case "d" -> Duration.ofDays(amount);
      default -> Duration.ofMillis(amount);
    };
  }
}

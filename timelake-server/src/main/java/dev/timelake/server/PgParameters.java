package dev.timelake.server;

import dev.timelake.engine.SqlLexer;
import dev.timelake.engine.SqlText;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code $1 … $n} parameters of an extended-protocol statement, placed as SQL literals through
 * the one quoting helper: Timelake plans statements from their text. Values come in the text or
 * binary format of their PostgreSQL type; the literal keeps their type ({@code CAST('…' AS
 * TIMESTAMPTZ)}), and untyped text stays a string literal that DuckDB casts where it is compared.
 */
final class PgParameters {
  private final List<String> pieces;
  private final List<Integer> numbers;

  private PgParameters(List<String> pieces, List<Integer> numbers) {
    this.pieces = pieces;
    this.numbers = numbers;
  }

  /** The placeholders of {@code sql} outside literals, quoted names and comments. */
  static PgParameters of(String sql) {
    List<String> pieces = new ArrayList<>();
    List<Integer> numbers = new ArrayList<>();
    List<SqlLexer.Token> tokens = SqlLexer.tokens(sql).tokens();
    if (!tokens.isEmpty() && tokens.get(0).is("PREPARE")) {
      // SQL's PREPARE … AS: its $n are the prepared statement's, bound by a later EXECUTE.
      return new PgParameters(List.of(sql), List.of());
    }
    int at = 0;
    for (SqlLexer.Token token : tokens) {
      if (token.kind() == SqlLexer.Kind.PARAMETER) {
        String digits = token.text().substring(1);
        if (digits.length() > 5) {
          throw new IllegalArgumentException(
              "Parameter " + token.text() + " is out of range (at most $65535)");
        }
        pieces.add(sql.substring(at, token.start()));
        numbers.add(Integer.parseInt(digits));
        at = token.end();
      }
    }
    pieces.add(sql.substring(at));
    return new PgParameters(pieces, numbers);
  }

  /** The highest parameter number used. */
  int count() {
    return numbers.stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** The statement with {@code literals} (parameter n at index n - 1) placed. */
  String render(List<String> literals) {
    StringBuilder sql = new StringBuilder(pieces.get(0));
    for (int p = 0; p < numbers.size(); p++) {
      int number = numbers.get(p);
      if (number < 1 || number > literals.size()) {
        throw new IllegalArgumentException(
            "The statement uses $" + number + " but " + literals.size() + " parameters were bound");
      }
      sql.append(literals.get(number - 1)).append(pieces.get(p + 1));
    }
    return sql.toString();
  }

  /**
   * The literal of one bound value of type {@code oid} in {@code format} (0 text, 1 binary); null
   * bytes are SQL NULL.
   *
   * @throws IllegalArgumentException for a value that is not of its type, or a binary type not
   *     supported
   */
  static String literal(byte[] value, int oid, int format) {
    if (value == null) {
      return "NULL";
    }
    return format == 1
        ? binary(ByteBuffer.wrap(value), oid)
        : text(new String(value, StandardCharsets.UTF_8), oid);
  }

  private static String text(String value, int oid) {
    return switch (oid) {
      case PgTypes.BOOL ->
          value.startsWith("t") || value.equalsIgnoreCase("true") || value.equals("1")
              ? "TRUE"
              : "FALSE";
      case PgTypes.INT2, PgTypes.INT4, PgTypes.INT8 -> Long.toString(Long.parseLong(value.strip()));
      case PgTypes.NUMERIC -> new BigDecimal(value.strip()).toPlainString();
      case PgTypes.FLOAT4 -> SqlText.literal(value, "FLOAT");
      case PgTypes.FLOAT8 -> SqlText.literal(value, "DOUBLE");
      case PgTypes.DATE -> SqlText.literal(value, "DATE");
      case PgTypes.TIME -> SqlText.literal(value, "TIME");
      case PgTypes.TIMESTAMP -> SqlText.literal(value, "TIMESTAMP");
      case PgTypes.TIMESTAMPTZ -> SqlText.literal(value, "TIMESTAMPTZ");
      case PgTypes.INTERVAL -> SqlText.literal(value, "INTERVAL");
      case PgTypes.UUID -> SqlText.literal(value, "UUID");
      default -> SqlText.literal(value);
    };
  }

  private static String binary(ByteBuffer value, int oid) {
    return switch (oid) {
      case PgTypes.BOOL -> value.get() != 0 ? "TRUE" : "FALSE";
      case PgTypes.INT2 -> Short.toString(value.getShort());
      case PgTypes.INT4 -> Integer.toString(value.getInt());
      case PgTypes.INT8 -> Long.toString(value.getLong());
      case PgTypes.FLOAT4 -> SqlText.literal(Float.toString(value.getFloat()), "FLOAT");
      case PgTypes.FLOAT8 -> SqlText.literal(Double.toString(value.getDouble()), "DOUBLE");
      case PgTypes.TEXT, PgTypes.VARCHAR, 0 ->
          SqlText.literal(StandardCharsets.UTF_8.decode(value).toString());
      case PgTypes.DATE ->
          SqlText.literal(
              LocalDate.ofInstant(PgTypes.EPOCH_2000, ZoneOffset.UTC)
                  .plusDays(value.getInt())
                  .toString(),
              "DATE");
      case PgTypes.TIMESTAMP ->
          SqlText.literal(
              LocalDateTime.ofInstant(
                      PgTypes.EPOCH_2000.plus(value.getLong(), ChronoUnit.MICROS), ZoneOffset.UTC)
                  .toString(),
              "TIMESTAMP");
      case PgTypes.TIMESTAMPTZ ->
          SqlText.literal(
              PgTypes.EPOCH_2000.plus(value.getLong(), ChronoUnit.MICROS).toString(),
              "TIMESTAMPTZ");
      default ->
          throw new IllegalArgumentException(
              "Binary parameters of type OID " + oid + " are not supported; send them as text");
    };
  }
}

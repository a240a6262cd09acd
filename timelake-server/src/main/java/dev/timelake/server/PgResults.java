package dev.timelake.server;

import dev.timelake.QueryResult;
import dev.timelake.StatementKind;
import java.util.List;
import java.util.Locale;

/**
 * A statement's result as PostgreSQL clients read it: RowDescription, a DataRow per row (text or
 * binary per column), the command tag in CommandComplete, and a NoticeResponse per warning.
 */
final class PgResults {
  private PgResults() {}

  /** The rows of {@code result} in text format, described first. */
  static void sendRows(PgMessages.Writer out, QueryResult result, java.time.ZoneId zone) {
    List<Integer> oids = result.columnTypes().stream().map(PgTypes::oid).toList();
    rowDescription(out, result.columnNames(), oids, new int[0]);
    dataRows(out, result, oids, new int[0], zone);
  }

  /** The result format of column {@code i}: JDBC-style, none means text, one means all. */
  static int format(int[] formats, int i) {
    return formats.length == 0 ? 0 : formats[formats.length == 1 ? 0 : i];
  }

  static void rowDescription(
      PgMessages.Writer out, List<String> labels, List<Integer> oids, int[] formats) {
    out.begin('T').int16(labels.size());
    for (int i = 0; i < labels.size(); i++) {
      int oid = oids.get(i);
      out.string(labels.get(i))
          .int32(0)
          .int16(0)
          .int32(oid)
          .int16(PgTypes.size(oid))
          .int32(-1)
          .int16(format(formats, i));
    }
    out.end();
  }

  /**
   * A DataRow for each row left in {@code result}, then {@code SELECT n}; text instants shown in
   * {@code zone}, the session's TimeZone.
   */
  static void dataRows(
      PgMessages.Writer out,
      QueryResult result,
      List<Integer> oids,
      int[] formats,
      java.time.ZoneId zone) {
    long rows = 0;
    while (result.next()) {
      out.begin('D').int16(oids.size());
      for (int i = 0; i < oids.size(); i++) {
        Object value = result.value(i);
        byte[] bytes =
            format(formats, i) == 1
                ? PgTypes.binary(value, oids.get(i))
                : PgTypes.text(value, oids.get(i), zone);
        if (bytes == null) {
          out.int32(-1);
        } else {
          out.int32(bytes.length).bytes(bytes);
        }
      }
      out.end();
      rows++;
    }
    out.begin('C').string("SELECT " + rows).end();
  }

  /** The command tag PostgreSQL clients expect for a statement without rows. */
  static String tag(QueryResult result) {
    long rows = result.rowCount().orElse(0);
    StatementKind kind = result.kind();
    return switch (kind) {
      case INSERT, UPSERT -> "INSERT 0 " + rows;
      case UPDATE -> "UPDATE " + rows;
      case DELETE -> "DELETE " + rows;
      // CREATE TABLE … AS and CREATE MATERIALIZED VIEW say how many rows they wrote, as in
      // PostgreSQL: drivers read the count from the tag.
      case CREATE_TABLE -> result.rowCount().isPresent() ? "SELECT " + rows : "CREATE TABLE";
      case DROP_TABLE -> "DROP TABLE";
      case TRUNCATE -> "TRUNCATE TABLE";
      case CREATE_ROLLUP ->
          result.rowCount().isPresent() ? "SELECT " + rows : "CREATE MATERIALIZED VIEW";
      case REFRESH_ROLLUP -> "REFRESH MATERIALIZED VIEW";
      case DROP_ROLLUP -> "DROP MATERIALIZED VIEW";
      case SET -> "SET";
      default -> kind.name().toUpperCase(Locale.ROOT).replace('_', ' ');
    };
  }

  /** A NoticeResponse (severity WARNING) for each of the statement's warnings. */
  static void notices(PgMessages.Writer out, QueryResult result) {
    for (String warning : result.warnings()) {
      out.begin('N')
          .int8('S')
          .string("WARNING")
          .int8('V')
          .string("WARNING")
          .int8('C')
          .string("01000")
          .int8('M')
          .string(warning)
          .int8(0)
          .end();
    }
  }
}

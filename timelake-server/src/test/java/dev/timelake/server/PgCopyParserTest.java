package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TableName;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * COPY statements as psql's {@code \copy} and pgjdbc's CopyManager spell them, read from their
 * tokens into what is copied and how; and the lines of PostgreSQL's text and CSV formats.
 */
class PgCopyParserTest {

  @Test
  void readsTheSpellingsOfCopyToStdout() {
    assertThat(PgCopyParser.parse("COPY iot.r TO STDOUT"))
        .contains(
            wholeTable(
                new TableName("iot", "r"),
                "SELECT * FROM \"iot\".\"r\"",
                "iot.r",
                PgCopyFormat.TEXT,
                false));
    assertThat(PgCopyParser.parse("copy  IOT.R (Device, \"Odd \"\"Name\") to stdout;"))
        .contains(
            toClient(
                "SELECT \"device\", \"Odd \"\"Name\" FROM \"iot\".\"r\"",
                "iot.r",
                PgCopyFormat.TEXT,
                false));
    assertThat(PgCopyParser.parse("COPY r TO STDOUT WITH (FORMAT csv, HEADER true)"))
        .contains(
            wholeTable(
                new TableName("default", "r"), "SELECT * FROM \"r\"", "r", PgCopyFormat.CSV, true));
    assertThat(PgCopyParser.parse("COPY r TO STDOUT (FORMAT 'text', HEADER)"))
        .contains(
            wholeTable(
                new TableName("default", "r"),
                "SELECT * FROM \"r\"",
                "r",
                PgCopyFormat.TEXT,
                true));
    assertThat(PgCopyParser.parse("COPY r TO STDOUT (HEADER off, FORMAT csv)"))
        .contains(
            wholeTable(
                new TableName("default", "r"),
                "SELECT * FROM \"r\"",
                "r",
                PgCopyFormat.CSV,
                false));
    // psql's \copy sends the query as the user wrote it, then TO STDOUT and the options.
    assertThat(
            PgCopyParser.parse(
                "COPY  ( select x, ')' AS \"(\" from (values (1)) v(x) -- )\n ) TO STDOUT with csv"
                    + " header"))
        .contains(
            toClient(
                "select x, ')' AS \"(\" from (values (1)) v(x) -- )",
                "a query",
                PgCopyFormat.CSV,
                true));
  }

  @Test
  void readsTheSpellingsOfCopyFromStdin() {
    assertThat(PgCopyParser.parse("COPY iot.k FROM STDIN (FORMAT csv)"))
        .contains(new PgCopyStatement.FromClient(new TableName("iot", "k"), List.of(), false));
    assertThat(PgCopyParser.parse("COPY k (time, \"Tag\") FROM STDIN CSV HEADER"))
        .contains(
            new PgCopyStatement.FromClient(
                new TableName("default", "k"), List.of("time", "Tag"), true));
    assertThat(PgCopyParser.parse("COPY k FROM STDIN WITH (FORMAT csv, HEADER match)"))
        .contains(new PgCopyStatement.FromClient(new TableName("default", "k"), List.of(), true));
  }

  @Test
  void leavesOtherStatementsToTheSession() {
    for (String sql :
        List.of(
            "COPY iot.r TO '/tmp/x.csv'",
            "COPY (SELECT 1) TO '/tmp/x.csv' (FORMAT csv)",
            "COPY iot.r FROM '/tmp/x.csv'",
            "SELECT 'COPY t TO STDOUT'",
            "COPY (SELECT 'TO STDOUT') TO PROGRAM 'cat'",
            "-- COPY t TO STDOUT\nSELECT 1")) {
      assertThat(PgCopyParser.parse(sql)).as(sql).isEmpty();
    }
  }

  @Test
  void refusesWhatItCannotRunAsWritten() {
    assertUnsupported("COPY k FROM STDIN", "COPY … FROM STDIN reads CSV only");
    assertUnsupported(
        "COPY r TO STDOUT (FORMAT csv, DELIMITER ';')",
        "take PostgreSQL's default delimiter, NULL, quote, escape and encoding only; the option"
            + " DELIMITER is not supported");
    assertUnsupported("COPY r TO STDOUT NULL 'x'", "the option NULL is not supported");
    assertUnsupported("COPY r TO STDOUT (FORMAT binary)", "the binary format is not supported");
    assertUnsupported("COPY r TO STDOUT BINARY", "the binary format is not supported");
    assertUnsupported(
        "COPY (INSERT INTO iot.r VALUES (1)) TO STDOUT",
        "COPY (…) TO STDOUT copies the rows of a query: put a SELECT inside the parentheses"
            + " (found 'INSERT')");
    assertUnsupported("COPY (SELECT 1) FROM STDIN", "COPY (query) FROM STDIN cannot be");
    assertUnsupported("COPY a.b.c TO STDOUT", "COPY names the table 'a.b.c'");
    assertUnsupported("COPY r TO STDOUT (HEADER maybe)", "HEADER takes true or false, not 'maybe'");
    assertUnsupported(
        "COPY r TO STDOUT (HEADER match)", "HEADER MATCH checks the data of COPY … FROM");
    assertUnsupported(
        "COPY r TO STDOUT (FORMAT csv) LIMIT 1", "COPY has 'LIMIT' where its options should end");
  }

  @Test
  void writesPostgresTextFormatWithEscapesAndNullMarkers() {
    assertThat(line(PgCopyFormat.TEXT, "a\tb", null, "back\\slash", "two\nlines\r", ""))
        .isEqualTo("a\\tb\t\\N\tback\\\\slash\ttwo\\nlines\\r\t\n");
  }

  @Test
  void writesCsvQuotingOnlyWhatNeedsIt() {
    assertThat(line(PgCopyFormat.CSV, "plain", null, "", "a,b", "say \"hi\"", "x\ny", "\\."))
        .isEqualTo("plain,,\"\",\"a,b\",\"say \"\"hi\"\"\",\"x\ny\",\"\\.\"\n");
  }

  private static String line(PgCopyFormat format, String... values) {
    return new String(format.line(Arrays.asList(values)), StandardCharsets.UTF_8);
  }

  private static PgCopyStatement toClient(
      String query, String source, PgCopyFormat format, boolean header) {
    return new PgCopyStatement.ToClient(query, source, format, header, Optional.empty());
  }

  private static PgCopyStatement wholeTable(
      TableName table, String query, String source, PgCopyFormat format, boolean header) {
    return new PgCopyStatement.ToClient(query, source, format, header, Optional.of(table));
  }

  private static void assertUnsupported(String sql, String message) {
    assertThatThrownBy(() -> PgCopyParser.parse(sql))
        .as(sql)
        .isInstanceOf(PgCopyStatement.UnsupportedCopyException.class)
        .hasMessageContaining(message);
  }
}

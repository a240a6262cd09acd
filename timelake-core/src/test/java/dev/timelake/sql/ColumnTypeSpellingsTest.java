package dev.timelake.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column types in SQL's CREATE TABLE are taken as written: every spelling DuckDB and PostgreSQL
 * users write becomes the type it names (nested lists and structs included), or is refused by name;
 * none silently becomes something else.
 */
class ColumnTypeSpellingsTest {
  @TempDir static Path warehouse;
  private static Lake lake;
  private static Session session;

  @BeforeAll
  static void open() {
    lake = Lake.open(warehouse);
    session = lake.newSession();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  @Test
  void everySpellingIsStoredAsTheTypeItNames() {
    Map<String, String> spellings = new LinkedHashMap<>();
    spellings.put("INTEGER[]", "INTEGER[]");
    spellings.put("INT[]", "INTEGER[]");
    spellings.put("VARCHAR[]", "VARCHAR[]");
    spellings.put("DOUBLE[][]", "DOUBLE[][]");
    spellings.put("STRUCT(a INTEGER, b VARCHAR)", "STRUCT(\"a\" INTEGER, \"b\" VARCHAR)");
    spellings.put(
        "STRUCT(a INTEGER[], b STRUCT(c DOUBLE))",
        "STRUCT(\"a\" INTEGER[], \"b\" STRUCT(\"c\" DOUBLE))");
    spellings.put("DECIMAL(10,2)", "DECIMAL(10,2)");
    spellings.put("NUMERIC(12, 4)", "DECIMAL(12,4)");
    spellings.put("TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ");
    spellings.put("TIMESTAMPTZ", "TIMESTAMPTZ");
    spellings.put("DOUBLE PRECISION", "DOUBLE");
    spellings.put("REAL", "FLOAT");
    spellings.put("BIGINT UNSIGNED", "DECIMAL(20,0)"); // UBIGINT, stored so and marked unsigned
    spellings.put("VARCHAR(255)", "VARCHAR");
    spellings.put("CHARACTER VARYING(20)", "VARCHAR");
    spellings.put("TEXT", "VARCHAR");
    spellings.put("BOOL", "BOOLEAN");
    spellings.put("BYTEA", "BLOB");
    int i = 0;
    for (Map.Entry<String, String> spelling : spellings.entrySet()) {
      String table = "types.t" + i++;
      session.sql("CREATE TABLE " + table + " (c " + spelling.getKey() + ")").close();
      assertThat(lake.table(table).columns().get(0).type().sql())
          .as(spelling.getKey())
          .isEqualTo(spelling.getValue());
    }
  }

  @Test
  void typesTimelakeDoesNotStoreAreRefusedByName() {
    assertThatThrownBy(() -> session.sql("CREATE TABLE types.bad (c INTEGER[3])"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(
            "Column 'c': fixed-size arrays such as INTEGER[3] are not supported; use a list,"
                + " INTEGER[]");
    assertThatThrownBy(() -> session.sql("CREATE TABLE types.bad (c MAP(VARCHAR, DOUBLE))"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("Cannot read this CREATE TABLE (")
        .hasMessageContaining("MAP and UNION are not supported");
    assertThatThrownBy(() -> session.sql("CREATE TABLE types.bad (c HUGEINT)"))
        .hasMessageContaining("Column 'c': Unsupported column type 'HUGEINT'");
    assertThat(lake.tables()).noneMatch(name -> name.name().equals("bad"));
  }
}

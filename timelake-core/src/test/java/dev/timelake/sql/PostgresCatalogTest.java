package dev.timelake.sql;

import static dev.timelake.TestTables.readings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog queries psql (15), pgjdbc and Grafana send, as they send them, list the lake's tables
 * as tables in one schema per namespace.
 */
class PostgresCatalogTest {
  @TempDir static Path warehouse;
  private static Lake lake;

  @BeforeAll
  static void writeTables() {
    lake = Lake.open(warehouse);
    lake.createTable(readings("iot.readings").build())
        .newAppend()
        .row("a", Instant.parse("2026-01-01T10:00:00Z"), 1.0)
        .commit();
    lake.createTable(readings("plant.flows").build());
  }

  @AfterAll
  static void close() {
    lake.close();
  }

  private static List<List<Object>> rows(String sql) {
    try (Session session = lake.newSession()) {
      return rows(session, sql);
    }
  }

  private static List<List<Object>> rows(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return result.rows();
    }
  }

  private static long oidOf(Session session, String table) {
    return ((Number)
            rows(
                    session,
                    "SELECT c.oid FROM pg_catalog.pg_class c WHERE c.relname OPERATOR(pg_catalog.~)"
                        + " '^("
                        + table
                        + ")$' COLLATE pg_catalog.default")
                .get(0)
                .get(0))
        .longValue();
  }

  @Test
  void psqlListsTheLakeTablesAsTables() {
    String dt =
        "SELECT n.nspname as \"Schema\",\n  c.relname as \"Name\",\n  CASE c.relkind WHEN 'r' THEN"
            + " 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'i' THEN"
            + " 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' WHEN 'f' THEN 'foreign"
            + " table' WHEN 'p' THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as"
            + " \"Type\",\n  pg_catalog.pg_get_userbyid(c.relowner) as \"Owner\"\nFROM"
            + " pg_catalog.pg_class c\n     LEFT JOIN pg_catalog.pg_namespace n ON n.oid ="
            + " c.relnamespace\n     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam\nWHERE"
            + " c.relkind IN ('r','p','')\n      AND n.nspname <> 'pg_catalog'\n      AND n.nspname"
            + " !~ '^pg_toast'\n      AND n.nspname <> 'information_schema'\n  AND"
            + " pg_catalog.pg_table_is_visible(c.oid)\nORDER BY 1,2;";
    assertThat(rows(dt))
        .containsExactly(
            List.of("iot", "readings", "table", "timelake"),
            List.of("plant", "flows", "table", "timelake"));
  }

  @Test
  void psqlListsNamespacesAsSchemas() {
    assertThat(
            rows(
                "SELECT n.nspname AS \"Name\",\n  pg_catalog.pg_get_userbyid(n.nspowner) AS"
                    + " \"Owner\"\nFROM pg_catalog.pg_namespace n\nWHERE n.nspname !~ '^pg_' AND"
                    + " n.nspname <> 'information_schema'\nORDER BY 1;"))
        .containsExactly(List.of("iot", "timelake"), List.of("plant", "timelake"));
  }

  @Test
  void psqlDescribesATableWithEveryQueryOfBackslashD() {
    Session session = lake.newSession();
    long oid = oidOf(session, "readings");
    String id = "'" + oid + "'";
    List<String> describe =
        List.of(
            "SELECT c.relchecks, c.relkind, c.relhasindex, c.relhasrules, c.relhastriggers,"
                + " c.relrowsecurity, c.relforcerowsecurity, false AS relhasoids,"
                + " c.relispartition, pg_catalog.array_to_string(c.reloptions || array(select"
                + " 'toast.' || x from pg_catalog.unnest(tc.reloptions) x), ', ')\n,"
                + " c.reltablespace, CASE WHEN c.reloftype = 0 THEN '' ELSE"
                + " c.reloftype::pg_catalog.regtype::pg_catalog.text END, c.relpersistence,"
                + " c.relreplident, am.amname\nFROM pg_catalog.pg_class c\n LEFT JOIN"
                + " pg_catalog.pg_class tc ON (c.reltoastrelid = tc.oid)\nLEFT JOIN"
                + " pg_catalog.pg_am am ON (c.relam = am.oid)\nWHERE c.oid = "
                + id
                + ";",
            "SELECT pol.polname, pol.polpermissive,\n  CASE WHEN pol.polroles = '{0}' THEN NULL"
                + " ELSE pg_catalog.array_to_string(array(select rolname from pg_catalog.pg_roles"
                + " where oid = any (pol.polroles) order by 1),',') END,\n "
                + " pg_catalog.pg_get_expr(pol.polqual, pol.polrelid),\n "
                + " pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid),\n  CASE pol.polcmd\n "
                + "   WHEN 'r' THEN 'SELECT'\n    WHEN 'a' THEN 'INSERT'\n    WHEN 'w' THEN"
                + " 'UPDATE'\n    WHEN 'd' THEN 'DELETE'\n    END AS cmd\nFROM"
                + " pg_catalog.pg_policy pol\nWHERE pol.polrelid = "
                + id
                + " ORDER BY 1;",
            "SELECT oid, stxrelid::pg_catalog.regclass,"
                + " stxnamespace::pg_catalog.regnamespace::pg_catalog.text AS nsp, stxname,\n"
                + "pg_catalog.pg_get_statisticsobjdef_columns(oid) AS columns,\n  'd' ="
                + " any(stxkind) AS ndist_enabled,\n  'f' = any(stxkind) AS deps_enabled,\n  'm' ="
                + " any(stxkind) AS mcv_enabled,\nstxstattarget\nFROM"
                + " pg_catalog.pg_statistic_ext\nWHERE stxrelid = "
                + id
                + "\nORDER BY nsp, stxname;",
            "SELECT pubname\n     , NULL\n     , NULL\nFROM pg_catalog.pg_publication p\n    "
                + " JOIN pg_catalog.pg_publication_namespace pn ON p.oid = pn.pnpubid\n     JOIN"
                + " pg_catalog.pg_class pc ON pc.relnamespace = pn.pnnspid\nWHERE pc.oid ="
                + id
                + " and pg_catalog.pg_relation_is_publishable("
                + id
                + ")\nUNION\nSELECT pubname\n     , pg_get_expr(pr.prqual, c.oid)\n     , (CASE"
                + " WHEN pr.prattrs IS NOT NULL THEN\n         (SELECT string_agg(attname, ', ')\n"
                + "           FROM pg_catalog.generate_series(0,"
                + " pg_catalog.array_upper(pr.prattrs::pg_catalog.int2[], 1)) s,\n              "
                + " pg_catalog.pg_attribute\n          WHERE attrelid = pr.prrelid AND attnum ="
                + " prattrs[s])\n        ELSE NULL END) FROM pg_catalog.pg_publication p\n    "
                + " JOIN pg_catalog.pg_publication_rel pr ON p.oid = pr.prpubid\n     JOIN"
                + " pg_catalog.pg_class c ON c.oid = pr.prrelid\nWHERE pr.prrelid = "
                + id
                + "\nUNION\nSELECT pubname\n     , NULL\n     , NULL\nFROM pg_catalog.pg_publication"
                + " p\nWHERE p.puballtables AND pg_catalog.pg_relation_is_publishable("
                + id
                + ")\nORDER BY 1;",
            "SELECT c.oid::pg_catalog.regclass\nFROM pg_catalog.pg_class c,"
                + " pg_catalog.pg_inherits i\nWHERE c.oid = i.inhparent AND i.inhrelid = "
                + id
                + "\n  AND c.relkind != 'p' AND c.relkind != 'I'\nORDER BY inhseqno;",
            "SELECT c.oid::pg_catalog.regclass, c.relkind, inhdetachpending,"
                + " pg_catalog.pg_get_expr(c.relpartbound, c.oid)\nFROM pg_catalog.pg_inherits"
                + " i, pg_catalog.pg_class c\nWHERE c.oid = i.inhrelid AND i.inhparent = "
                + id
                + "\nORDER BY pg_catalog.pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT',"
                + " c.oid::pg_catalog.regclass::pg_catalog.text;");
    for (String query : describe) {
      rows(session, query); // each must run: psql stops describing at the first failure
    }
    assertThat(rows(session, describe.get(0)).get(0).get(1)).isEqualTo("r");
    String columns =
        "SELECT a.attname,\n  pg_catalog.format_type(a.atttypid, a.atttypmod),\n  (SELECT"
            + " pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)\n   FROM pg_catalog.pg_attrdef d\n"
            + "   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),\n "
            + " a.attnotnull,\n  (SELECT c.collname FROM pg_catalog.pg_collation c,"
            + " pg_catalog.pg_type t\n   WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND"
            + " a.attcollation <> t.typcollation) AS attcollation,\n  a.attidentity,\n "
            + " a.attgenerated\nFROM pg_catalog.pg_attribute a\nWHERE a.attrelid = "
            + id
            + " AND a.attnum > 0 AND NOT a.attisdropped\nORDER BY a.attnum;";
    assertThat(rows(session, columns).stream().map(row -> row.get(0)))
        .containsExactly("device", "time", "value", "_ingest_ts");
    session.close();
  }

  @Test
  void grafanaFindsVersionSchemasTablesAndColumns() {
    assertThat(rows("SELECT current_setting('server_version_num')::int/100 as version"))
        .containsExactly(List.of(1600.0)); // DuckDB divides integers exactly
    assertThat(rows("SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'")).isEmpty();
    assertThat(
            rows(
                "SELECT schema_name AS \"name\"\n    FROM information_schema.schemata\n    WHERE"
                    + " schema_name NOT IN ('information_schema', 'pg_catalog', 'pg_toast')\n   "
                    + " ORDER BY schema_name"))
        .containsExactly(List.of("iot"), List.of("plant"));
    assertThat(
            rows(
                "SELECT quote_ident(table_name) AS \"table\" FROM information_schema.tables WHERE"
                    + " quote_ident(table_schema) = 'iot' ORDER BY 1"))
        .containsExactly(List.of("readings"));
    assertThat(
            rows(
                "SELECT quote_ident('order'), quote_ident('orders'), quote_ident('Mixed'),"
                    + " quote_ident('a\"b')"))
        .containsExactly(List.of("\"order\"", "orders", "\"Mixed\"", "\"a\"\"b\""));
    String searchPath =
        " quote_ident(table_schema) IN ( SELECT CASE WHEN trim(s[i]) = '\"$user\"' THEN user ELSE"
            + " trim(s[i]) END FROM generate_series("
            + " array_lower(string_to_array(current_setting('search_path'),','),1),"
            + " array_upper(string_to_array(current_setting('search_path'),','),1) ) as i,"
            + " string_to_array(current_setting('search_path'),',') s )";
    assertThat(
            rows(
                "SELECT CASE WHEN"
                    + searchPath
                    + " THEN quote_ident(table_name) ELSE quote_ident(table_schema) || '.' ||"
                    + " quote_ident(table_name) END AS \"table\" FROM information_schema.tables"
                    + " WHERE quote_ident(table_schema) NOT IN ('information_schema', 'pg_catalog')"
                    + " ORDER BY CASE WHEN"
                    + searchPath
                    + " THEN 0 ELSE 1 END, 1"))
        .containsExactly(List.of("iot.readings"), List.of("plant.flows"));
    assertThat(
            rows(
                "SELECT quote_ident(column_name) AS \"column\", data_type AS \"type\" FROM"
                    + " information_schema.columns WHERE CASE WHEN"
                    + " array_length(parse_ident('iot.readings'),1) = 2 THEN"
                    + " quote_ident(table_schema) = (parse_ident('iot.readings'))[1] AND"
                    + " quote_ident(table_name) = (parse_ident('iot.readings'))[2] ELSE"
                    + " quote_ident(table_name) = 'iot.readings' AND"
                    + searchPath
                    + " END"))
        .containsExactly(
            List.of("device", "text"),
            List.of("time", "timestamp with time zone"),
            List.of("value", "double precision"),
            List.of("_ingest_ts", "timestamp with time zone"));
  }

  @Test
  void showsTheServerSettingsPostgresqlClientsRead() {
    assertThat(rows("SHOW server_version")).containsExactly(List.of("16.0"));
    assertThat(rows("show TRANSACTION_ISOLATION;")).containsExactly(List.of("read committed"));
    assertThat(rows("SHOW TimeZone")).containsExactly(List.of("UTC")); // DuckDB's own
    assertThat(rows("SELECT current_setting('TimeZone'), current_setting('server_version_num')"))
        .containsExactly(List.of("UTC", "160000"));
    assertThat(rows("SELECT current_database() FROM pg_catalog.pg_database"))
        .containsExactly(List.of("timelake"));
  }

  @Test
  void versionNamesPostgresqlForClientsThatParseIt() {
    assertThat((String) rows("SELECT version()").get(0).get(0)).startsWith("PostgreSQL 16.0");
  }

  @Test
  void rewriteLeavesLiteralsQuotedNamesAndCommentsAlone() {
    String sql =
        "SELECT 'pg_catalog.pg_class', \"pg_class\", E'it''s \\' pg_roles' -- pg_roles\n"
            + " FROM pg_catalog.pg_class /* pg_catalog.pg_roles */";
    assertThat(PostgresCatalog.rewrite(sql))
        .isEqualTo(
            "SELECT 'pg_catalog.pg_class', \"pg_class\", E'it''s \\' pg_roles' -- pg_roles\n"
                + " FROM memory.tl_pg.pg_class /* pg_catalog.pg_roles */");
  }

  @Test
  void statementsNamingTheSharedDefinitionsAreRefused() {
    for (String sql :
        List.of(
            "DROP SCHEMA memory.tl_pg CASCADE",
            "CREATE OR REPLACE MACRO memory.tl_pg.version() AS 'x'",
            "SELECT * FROM \"TL_INFORMATION_SCHEMA\".tables")) {
      assertThatThrownBy(() -> rows(sql))
          .as(sql)
          .isInstanceOf(TimelakeException.class)
          .hasMessageContaining("names Timelake's own schema")
          .hasMessageContaining("pg_catalog");
    }
    // As text they are anyone's.
    assertThat(rows("SELECT 'tl_pg' AS name")).containsExactly(List.of("tl_pg"));
    assertThat(rows("SELECT version() LIKE 'PostgreSQL 16.0%'")).containsExactly(List.of(true));
  }

  @Test
  void ordinaryQueriesAreNotCatalogQueries() {
    assertThat(PostgresCatalog.mentions("SELECT avg(value) FROM iot.readings")).isFalse();
    // Names, literals and comments that look like the catalog, and statements that write.
    assertThat(PostgresCatalog.mentions("SELECT * FROM iot.pg_metrics WHERE host = 'pg_class'"))
        .isFalse();
    assertThat(PostgresCatalog.mentions("SELECT 1 -- pg_catalog.pg_class")).isFalse();
    assertThat(PostgresCatalog.mentions("SELECT $$pg_catalog.pg_class$$ AS t")).isFalse();
    assertThat(PostgresCatalog.mentions("SELECT $q$ it's pg_catalog.pg_class $q$ AS t")).isFalse();
    assertThat(
            PostgresCatalog.mentions(
                "CREATE TABLE iot.pg_metrics (host VARCHAR, time TIMESTAMPTZ, v DOUBLE)"))
        .isFalse();
    assertThat(PostgresCatalog.mentions("INSERT INTO iot.t SELECT version(), now(), 1")).isFalse();
    assertThat(PostgresCatalog.mentions("SHOW server_version" + " ".repeat(40_000) + "x"))
        .isFalse(); // and quickly: no backtracking over the blanks
    assertThat(PostgresCatalog.mentions("SELECT * FROM pg_catalog.pg_class")).isTrue();
  }
}

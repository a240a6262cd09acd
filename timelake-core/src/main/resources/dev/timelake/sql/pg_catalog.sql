-- PostgreSQL's catalog as psql, pgjdbc and Grafana query it, defined once per engine in its
-- shared database (PostgresCatalog.define): views over DuckDB's own catalog that show a session's
-- tables with PostgreSQL's type oids and names, and the functions DuckDB lacks. The views read
-- current_database() when queried, so each session sees its own tables.
--
-- Placeholders: $S the schema of the pg_catalog definitions, $I that of information_schema,
-- $P the PostgreSQL version reported, $V DuckDB's version. Each statement ends with a line ";".

CREATE SCHEMA IF NOT EXISTS $S
;

CREATE SCHEMA IF NOT EXISTS $I
;

CREATE TYPE IF NOT EXISTS $S.regclass AS BIGINT
;

CREATE TYPE IF NOT EXISTS $S.regtype AS BIGINT
;

CREATE TYPE IF NOT EXISTS $S.regnamespace AS BIGINT
;

CREATE TYPE IF NOT EXISTS $S.regproc AS BIGINT
;

CREATE TYPE IF NOT EXISTS $S.oid AS BIGINT
;

CREATE OR REPLACE MACRO $S.pg_type_name(t) AS CASE WHEN t LIKE 'DECIMAL%' THEN 'numeric'
  WHEN t LIKE 'STRUCT%' THEN 'record' WHEN t LIKE '%[]' THEN 'ARRAY' ELSE coalesce(map_extract_value(MAP
  {'VARCHAR': 'text', 'DOUBLE': 'double precision', 'FLOAT': 'real', 'BIGINT': 'bigint',
  'INTEGER': 'integer', 'SMALLINT': 'smallint', 'TINYINT': 'smallint', 'HUGEINT': 'numeric',
  'UBIGINT': 'numeric', 'UINTEGER': 'bigint', 'BOOLEAN': 'boolean', 'DATE': 'date', 'TIMESTAMP WITH TIME ZONE':
  'timestamp with time zone', 'TIMESTAMP': 'timestamp without time zone', 'TIME': 'time without time zone',
  'INTERVAL': 'interval', 'BLOB': 'bytea', 'UUID': 'uuid', 'JSON': 'json'}, t), lower(t))
  END
;

CREATE OR REPLACE MACRO $S.pg_type_oid(t) AS CASE WHEN t LIKE 'DECIMAL%' THEN 1700 WHEN
  t LIKE 'TIMESTAMP WITH TIME ZONE' THEN 1184 WHEN t LIKE 'TIMESTAMP%' THEN 1114 ELSE coalesce(map_extract_value(MAP
  {'BOOLEAN': 16, 'BLOB': 17, 'BIGINT': 20, 'UINTEGER': 20, 'SMALLINT': 21, 'TINYINT':
  21, 'UTINYINT': 21, 'INTEGER': 23, 'USMALLINT': 23, 'VARCHAR': 1043, 'JSON': 114, 'FLOAT':
  700, 'DOUBLE': 701, 'DATE': 1082, 'TIME': 1083, 'INTERVAL': 1186, 'HUGEINT': 1700, 'UBIGINT':
  1700, 'UUID': 2950}, t), 25) END
;

CREATE OR REPLACE VIEW $S.pg_type AS SELECT t.oid, t.typname, 11 AS typnamespace, 10 AS
  typowner, t.typlen, true AS typbyval, 'b' AS typtype, 'U' AS typcategory, false AS typispreferred,
  true AS typisdefined, ',' AS typdelim, 0 AS typrelid, 0 AS typelem, 0 AS typarray, false
  AS typnotnull, 0 AS typbasetype, -1 AS typtypmod, 0 AS typndims, 0 AS typcollation, CAST(NULL
  AS VARCHAR) AS typdefault FROM (VALUES (16, 'bool', 1, 'boolean'), (17, 'bytea', -1,
  'bytea'), (20, 'int8', 8, 'bigint'), (21, 'int2', 2, 'smallint'), (23, 'int4', 4, 'integer'),
  (25, 'text', -1, 'text'), (26, 'oid', 4, 'oid'), (114, 'json', -1, 'json'), (700, 'float4',
  4, 'real'), (701, 'float8', 8, 'double precision'), (1043, 'varchar', -1, 'character varying'),
  (1082, 'date', 4, 'date'), (1083, 'time', 8, 'time without time zone'), (1114, 'timestamp',
  8, 'timestamp without time zone'), (1184, 'timestamptz', 8, 'timestamp with time zone'),
  (1186, 'interval', 16, 'interval'), (1700, 'numeric', -1, 'numeric'), (2950, 'uuid',
  16, 'uuid')) AS t(oid, typname, typlen, sqlname)
;

CREATE OR REPLACE MACRO $S.format_type(type_oid, typemod) AS (SELECT min(sqlname) FROM
  (VALUES (16, 'bool', 1, 'boolean'), (17, 'bytea', -1, 'bytea'), (20, 'int8', 8, 'bigint'),
  (21, 'int2', 2, 'smallint'), (23, 'int4', 4, 'integer'), (25, 'text', -1, 'text'), (26,
  'oid', 4, 'oid'), (114, 'json', -1, 'json'), (700, 'float4', 4, 'real'), (701, 'float8',
  8, 'double precision'), (1043, 'varchar', -1, 'character varying'), (1082, 'date', 4,
  'date'), (1083, 'time', 8, 'time without time zone'), (1114, 'timestamp', 8, 'timestamp without time zone'),
  (1184, 'timestamptz', 8, 'timestamp with time zone'), (1186, 'interval', 16, 'interval'),
  (1700, 'numeric', -1, 'numeric'), (2950, 'uuid', 16, 'uuid')) AS t(oid, typname, typlen,
  sqlname) WHERE t.oid = type_oid)
;

CREATE OR REPLACE VIEW $S.pg_attribute AS SELECT a.* REPLACE ($S.pg_type_oid(col.data_type)
  AS atttypid, NOT col.is_nullable AS attnotnull) FROM pg_catalog.pg_attribute a JOIN duckdb_columns()
  col ON col.table_oid = a.attrelid AND col.column_index = a.attnum WHERE col.database_name
  = current_database() AND col.schema_name <> 'main'
;

CREATE OR REPLACE VIEW $S.pg_class AS SELECT c.* REPLACE (CASE c.relkind WHEN 'v' THEN
  'r' ELSE c.relkind END AS relkind, false AS relhasindex, false AS relhastriggers, false
  AS relhasrules, 0 AS relchecks, 'd' AS relreplident, CAST([] AS VARCHAR[]) AS reloptions,
  CAST(NULL AS VARCHAR) AS relpartbound, CAST(NULL AS VARCHAR[]) AS relacl), false AS relforcerowsecurity
  FROM pg_catalog.pg_class c WHERE c.relnamespace IN (SELECT oid FROM pg_catalog.pg_namespace
  WHERE nspname <> 'main')
;

CREATE OR REPLACE VIEW $S.pg_namespace AS SELECT * FROM pg_catalog.pg_namespace WHERE oid
  IN (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname <> 'main') UNION ALL SELECT
  11, 'pg_catalog', 10, NULL
;

CREATE OR REPLACE VIEW $S.pg_database AS SELECT 1 AS oid, 'timelake' AS datname, 10 AS
  datdba, 6 AS encoding, 'c' AS datlocprovider, false AS datistemplate, true AS datallowconn,
  -1 AS datconnlimit, 'C' AS datcollate, 'C' AS datctype, CAST(NULL AS VARCHAR) AS daticulocale,
  CAST(NULL AS VARCHAR) AS datcollversion, CAST(NULL AS VARCHAR[]) AS datacl, 0 AS dattablespace
;

CREATE OR REPLACE VIEW $S.pg_extension AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL
  AS VARCHAR) AS extname, CAST(NULL AS VARCHAR) AS extversion, CAST(NULL AS BIGINT) AS
  extnamespace WHERE false
;

CREATE OR REPLACE VIEW $S.pg_roles AS SELECT 10 AS oid, 'timelake' AS rolname, true AS
  rolsuper, true AS rolinherit, false AS rolcreaterole, false AS rolcreatedb, true AS rolcanlogin,
  false AS rolreplication, -1 AS rolconnlimit, CAST(NULL AS TIMESTAMPTZ) AS rolvaliduntil,
  false AS rolbypassrls, CAST(NULL AS VARCHAR[]) AS rolconfig
;

CREATE OR REPLACE VIEW $S.pg_user AS SELECT 'timelake' AS usename, 10 AS usesysid, true
  AS usesuper
;

CREATE OR REPLACE VIEW $S.pg_inherits AS SELECT CAST(NULL AS BIGINT) AS inhrelid, CAST(NULL
  AS BIGINT) AS inhparent, 0 AS inhseqno, false AS inhdetachpending WHERE false
;

CREATE OR REPLACE VIEW $S.pg_policy AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS
  VARCHAR) AS polname, CAST(NULL AS BIGINT) AS polrelid, CAST(NULL AS VARCHAR) AS polcmd,
  true AS polpermissive, CAST(NULL AS BIGINT[]) AS polroles, CAST(NULL AS VARCHAR) AS polqual,
  CAST(NULL AS VARCHAR) AS polwithcheck WHERE false
;

CREATE OR REPLACE VIEW $S.pg_statistic_ext AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL
  AS BIGINT) AS stxrelid, CAST(NULL AS VARCHAR) AS stxname, CAST(NULL AS BIGINT) AS stxnamespace,
  CAST(NULL AS VARCHAR[]) AS stxkind, -1 AS stxstattarget, CAST(NULL AS VARCHAR) AS stxkeys
  WHERE false
;

CREATE OR REPLACE VIEW $S.pg_publication AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL
  AS VARCHAR) AS pubname, false AS puballtables WHERE false
;

CREATE OR REPLACE VIEW $S.pg_publication_namespace AS SELECT CAST(NULL AS BIGINT) AS oid,
  CAST(NULL AS BIGINT) AS pnpubid, CAST(NULL AS BIGINT) AS pnnspid WHERE false
;

CREATE OR REPLACE VIEW $S.pg_publication_rel AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL
  AS BIGINT) AS prpubid, CAST(NULL AS BIGINT) AS prrelid, CAST(NULL AS VARCHAR) AS prqual,
  CAST(NULL AS VARCHAR) AS prattrs WHERE false
;

CREATE OR REPLACE VIEW $S.pg_trigger AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS
  BIGINT) AS tgrelid, CAST(NULL AS VARCHAR) AS tgname, false AS tgisinternal, CAST(NULL
  AS VARCHAR) AS tgenabled WHERE false
;

CREATE OR REPLACE VIEW $S.pg_rewrite AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS
  VARCHAR) AS rulename, CAST(NULL AS BIGINT) AS ev_class WHERE false
;

CREATE OR REPLACE MACRO $S.pg_partition_ancestors(relation) AS TABLE SELECT CAST(relation
  AS BIGINT) AS relid WHERE false
;

CREATE OR REPLACE MACRO $S.pg_get_userbyid(id) AS 'timelake'
;

CREATE OR REPLACE MACRO $S.client_database() AS 'timelake'
;

CREATE OR REPLACE MACRO $S.pg_get_expr(node, relation) AS CAST(NULL AS VARCHAR), (node,
  relation, pretty) AS CAST(NULL AS VARCHAR)
;

CREATE OR REPLACE MACRO $S.array_lower(list, dimension) AS CASE WHEN len(list) > 0 THEN
  1 END
;

CREATE OR REPLACE MACRO $S.array_upper(list, dimension) AS CASE WHEN len(list) > 0 THEN
  len(list) END
;

CREATE OR REPLACE MACRO $S.pg_encoding_to_char(encoding) AS 'UTF8'
;

CREATE OR REPLACE MACRO $S.pg_relation_is_publishable(relation) AS false
;

CREATE OR REPLACE MACRO $S.pg_get_statisticsobjdef_columns(id) AS CAST(NULL AS VARCHAR)
;

CREATE OR REPLACE MACRO $S.quote_ident(name) AS CASE WHEN regexp_full_match(name, '[a-z_][a-z0-9_$]*')
  AND NOT list_contains(['all', 'analyse', 'analyze', 'and', 'any', 'array', 'as', 'asc',
  'asymmetric', 'both', 'case', 'cast', 'check', 'collate', 'column', 'constraint', 'create',
  'current_catalog', 'current_date', 'current_role', 'current_time', 'current_timestamp',
  'current_user', 'default', 'deferrable', 'desc', 'distinct', 'do', 'else', 'end', 'except',
  'false', 'fetch', 'for', 'foreign', 'from', 'grant', 'group', 'having', 'in', 'initially',
  'intersect', 'into', 'lateral', 'leading', 'limit', 'localtime', 'localtimestamp', 'not',
  'null', 'offset', 'on', 'only', 'or', 'order', 'placing', 'primary', 'references', 'returning',
  'select', 'session_user', 'some', 'symmetric', 'system_user', 'table', 'then', 'to',
  'trailing', 'true', 'union', 'unique', 'user', 'using', 'variadic', 'when', 'where',
  'window', 'with'], name) THEN name ELSE '"' || replace(name, '"', '""') || '"' END
;

CREATE OR REPLACE MACRO $S.parse_ident(name) AS list_transform(string_split(name, '.'),
  lambda part: trim(part, '"'))
;

CREATE OR REPLACE MACRO $S.version() AS 'PostgreSQL $P (Timelake on DuckDB $V)'
;

CREATE OR REPLACE MACRO $S.current_setting(setting_name) AS map_extract_value(MAP {'server_version':
  '$P', 'server_version_num': '160000', 'search_path': '"$user", public', 'server_encoding':
  'UTF8', 'client_encoding': 'UTF8', 'timezone': 'UTC', 'datestyle': 'ISO, MDY', 'integer_datetimes':
  'on', 'standard_conforming_strings': 'on', 'max_identifier_length': '63', 'default_transaction_read_only':
  'off', 'transaction_isolation': 'read committed', 'lc_collate': 'C', 'lc_ctype': 'C',
  'max_index_keys': '32'}, lower(setting_name))
;

CREATE OR REPLACE VIEW $I.schemata AS SELECT 'timelake' AS catalog_name, schema_name, 'timelake'
  AS schema_owner, CAST(NULL AS VARCHAR) AS default_character_set_catalog, CAST(NULL AS
  VARCHAR) AS default_character_set_schema, CAST(NULL AS VARCHAR) AS default_character_set_name,
  CAST(NULL AS VARCHAR) AS sql_path FROM information_schema.schemata WHERE catalog_name
  = current_database() AND schema_name <> 'main'
;

CREATE OR REPLACE VIEW $I.tables AS SELECT 'timelake' AS table_catalog, table_schema, table_name,
  CASE table_type WHEN 'VIEW' THEN 'BASE TABLE' ELSE table_type END AS table_type, CAST(NULL
  AS VARCHAR) AS self_referencing_column_name, CAST(NULL AS VARCHAR) AS reference_generation,
  CAST(NULL AS VARCHAR) AS user_defined_type_catalog, CAST(NULL AS VARCHAR) AS user_defined_type_schema,
  CAST(NULL AS VARCHAR) AS user_defined_type_name, 'YES' AS is_insertable_into, 'NO' AS
  is_typed, CAST(NULL AS VARCHAR) AS commit_action FROM information_schema.tables WHERE
  table_catalog = current_database() AND table_schema <> 'main'
;

CREATE OR REPLACE VIEW $I.columns AS SELECT c.* EXCLUDE (COLUMN_COMMENT) REPLACE ('timelake'
  AS table_catalog, $S.pg_type_name(c.data_type) AS data_type, $S.pg_type_name(c.data_type)
  AS udt_name) FROM information_schema.columns c WHERE c.table_catalog = current_database()
  AND c.table_schema <> 'main'
;

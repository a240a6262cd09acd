-- Timelake's SQL as a new user writes it, one statement after another on an empty warehouse.
-- ConformanceTest (timelake-server) runs this script through the embedded JDBC driver, pgjdbc and
-- psql against `timelake serve`; ShellConformanceTest (timelake-cli) runs it through the SQL shell.
-- Each path must give what the comment lines right above a statement say:
--
--   "message: TEXT"    the shell prints TEXT for a statement without rows
--   "tag: TEXT"        PostgreSQL clients get the command tag TEXT (psql prints it; JDBC drivers
--                      read its row count, INSERT 0 3: 3, else 0)
--   "count: N"         the update count JDBC drivers report, where the tag does not give it
--   "columns: a|b"     the names of the result's columns
--   "row: x|y"         the next row: values as text joined by |, NULL for null
--   "no rows"          a result without rows;  "more rows": rows after those listed not compared
--   "error: PREFIX"    the statement is refused with a message starting with PREFIX
--   "sqlstate: CODE"   the SQLSTATE JDBC drivers and PostgreSQL clients get for the refusal
--
-- A key may be preceded by the paths it is for (shell, jdbc, pgjdbc, psql; local = shell and jdbc;
-- server = pgjdbc and psql) where they legitimately differ; it then replaces the plain line of
-- the same key for them. They differ in how values are spelled: PostgreSQL's text for the server's
-- clients, DuckDB's for the embedded driver, ISO-8601 instants and [a, b] lists in the shell,
-- whose CSV prints NULL as an empty field.
-- Statements whose policy differs between the local user and a server client (files, ATTACH,
-- extensions, instance-wide settings: docs/SECURITY.md) are not in this script.

-- A table of readings: one row per device and time.
-- message: Created table demo.readings
-- tag: CREATE TABLE
CREATE TABLE demo.readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)
  WITH (time_column = 'time', series_key = 'device');

-- error: Cannot create demo.readings: it already exists
-- sqlstate: 42P07
CREATE TABLE demo.readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)
  WITH (time_column = 'time', series_key = 'device');

-- message: Table demo.readings already exists
-- tag: CREATE TABLE
CREATE TABLE IF NOT EXISTS demo.readings (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)
  WITH (time_column = 'time', series_key = 'device');

-- Column types as written: lists, structs, decimals, unsigned integers, VARCHAR(n).
-- message: Created table demo.equipment
-- tag: CREATE TABLE
CREATE TABLE demo.equipment (device VARCHAR(16), time TIMESTAMPTZ, counts INTEGER[],
  place STRUCT(lat DOUBLE, lon DOUBLE), price DECIMAL(10, 2), total BIGINT UNSIGNED)
  WITH (time_column = 'time', series_key = 'device');

-- error: Column 'v': fixed-size arrays such as INT[3] are not supported; use a list, INT[]
-- sqlstate: 22023
CREATE TABLE demo.fixed (device VARCHAR, time TIMESTAMPTZ, v INT[3])
  WITH (time_column = 'time', series_key = 'device');

-- message: Inserted 2 rows into demo.readings
-- tag: INSERT 0 2
INSERT INTO demo.readings VALUES
  ('pump-1', '2026-01-01 10:00:00+00', 1.5),
  ('pump-2', '2026-01-01 10:00:00+00', 2.5);

-- Two hours of readings a minute apart; // is integer division.
-- message: Inserted 120 rows into demo.readings
-- tag: INSERT 0 120
INSERT INTO demo.readings
  SELECT 'pump-' || (i % 2 + 1), TIMESTAMPTZ '2026-01-01 11:00:00+00' + i * INTERVAL '1 minute',
    i // 10
  FROM range(0, 120) t(i);

-- A correction written twice in one statement: the last copy of the key is kept.
-- message: Inserted 1 row into demo.readings (1 copy of a key kept once)
-- tag: INSERT 0 1
INSERT OR REPLACE INTO demo.readings VALUES
  ('pump-1', '2026-01-01 10:00:00+00', 9.5),
  ('pump-1', '2026-01-01 10:00:00+00', 8.5);

-- message: Inserted 1 row into demo.equipment
-- tag: INSERT 0 1
INSERT INTO demo.equipment VALUES ('pump-1', '2026-01-01 10:00:00+00', [1, 2, 3],
  {'lat': 52.5, 'lon': 13.4}, 12.34, 18446744073709551615);

-- columns: device|time|counts|place|price|total
-- row: pump-1|2026-01-01 10:00:00+00|{1,2,3}|(52.5,13.4)|12.34|18446744073709551615
-- jdbc row: pump-1|2026-01-01T10:00Z|[1, 2, 3]|{'lat': 52.5, 'lon': 13.4}|12.34|18446744073709551615
-- shell row: pump-1|2026-01-01T10:00:00Z|[1, 2, 3]|(52.5, 13.4)|12.34|18446744073709551615
SELECT device, time, counts, place, price, total FROM demo.equipment;

-- Reads remove copies of a key: the newest write wins.
-- columns: device|value
-- row: pump-1|8.5
-- row: pump-2|2.5
SELECT device, value FROM demo.readings WHERE time = '2026-01-01 10:00:00+00' ORDER BY device;

-- row: 122
SELECT count(*) FROM demo.readings;

-- columns: hour|n|peak
-- row: 2026-01-01 10:00:00+00|2|8.5
-- row: 2026-01-01 11:00:00+00|60|5.0
-- row: 2026-01-01 12:00:00+00|60|11.0
-- jdbc row: 2026-01-01T10:00Z|2|8.5
-- jdbc row: 2026-01-01T11:00Z|60|5.0
-- jdbc row: 2026-01-01T12:00Z|60|11.0
-- shell row: 2026-01-01T10:00:00Z|2|8.5
-- shell row: 2026-01-01T11:00:00Z|60|5.0
-- shell row: 2026-01-01T12:00:00Z|60|11.0
SELECT time_bucket(INTERVAL '1 hour', time) AS hour, count(*) AS n, max(value) AS peak
FROM demo.readings GROUP BY hour ORDER BY hour;

-- columns: part|explain
-- row: timelake|demo.readings: 3 of 3 files after pruning, 2 in 1 overlapping groups deduplicated
-- more rows
EXPLAIN SELECT count(*) FROM demo.readings;

-- columns: namespace|name|kind
-- row: demo|equipment|time-series
-- row: demo|readings|time-series
SHOW TABLES;

-- columns: column_name|column_type|null|key
-- row: device|VARCHAR|NO|series key
-- row: time|TIMESTAMPTZ|NO|time
-- row: value|DOUBLE|YES|
-- row: _ingest_ts|TIMESTAMPTZ|NO|insertion time
DESCRIBE demo.readings;

-- columns: setting|value|level
-- row: read-dedup|true|default
SHOW timelake.read_dedup;

-- Every stored copy, as written.
-- message: SET timelake.read_dedup = false
-- tag: SET
SET timelake.read_dedup = false;

-- columns: setting|value|level
-- row: read-dedup|false|session
SHOW timelake.read_dedup;

-- row: false
SELECT current_setting('timelake.read_dedup');

-- row: 3
SELECT count(*) FROM demo.readings WHERE time = '2026-01-01 10:00:00+00';

-- message: SET timelake.read_dedup = true
-- tag: SET
SET timelake.read_dedup = true;

-- message: SET
-- tag: SET
SET statement_timeout = '30s';

-- A transaction reads its own writes; ROLLBACK discards them.
-- message: BEGIN
-- tag: BEGIN
BEGIN;

-- message: Inserted 1 row into demo.readings, held until COMMIT
-- tag: INSERT 0 1
INSERT INTO demo.readings VALUES ('pump-3', '2026-01-02 00:00:00+00', 3.5);

-- row: pump-3|3.5
SELECT device, value FROM demo.readings WHERE device = 'pump-3';

-- message: ROLLBACK
-- tag: ROLLBACK
ROLLBACK;

-- no rows
SELECT device, value FROM demo.readings WHERE device = 'pump-3';

-- message: BEGIN
-- tag: BEGIN
BEGIN;

-- message: Inserted 1 row into demo.readings, held until COMMIT
-- tag: INSERT 0 1
INSERT INTO demo.readings VALUES ('pump-3', '2026-01-02 00:00:00+00', 3.5);

-- message: COMMIT: 1 row into demo.readings
-- tag: COMMIT
COMMIT;

-- row: pump-3|3.5
SELECT device, value FROM demo.readings WHERE device = 'pump-3';

-- message: BEGIN
-- tag: BEGIN
BEGIN;

-- DDL takes effect at once, so a transaction refuses it.
-- error: Cannot run CREATE TABLE demo.other inside a transaction
-- sqlstate: 25001
CREATE TABLE demo.other (device VARCHAR, time TIMESTAMPTZ, value DOUBLE)
  WITH (time_column = 'time', series_key = 'device');

-- message: ROLLBACK
-- tag: ROLLBACK
ROLLBACK;

-- Hourly means, kept up to date by refresh. The embedded driver's update count is the rows
-- written; the server's command tag carries none (PostgreSQL's own is SELECT 7).
-- message: Created rollup demo.readings_1h (7 rows)
-- tag: SELECT 7
CREATE MATERIALIZED ROLLUP demo.readings_1h AS
  SELECT device, time_bucket(INTERVAL '1 hour', time) AS bucket, avg(value) AS mean,
    count(*) AS n
  FROM demo.readings GROUP BY ALL;

-- A late correction: the rollup is behind until refreshed.
-- message: Inserted 1 row into demo.readings
-- tag: INSERT 0 1
INSERT OR REPLACE INTO demo.readings VALUES ('pump-1', '2026-01-01 12:30:00+00', 20.0);

-- message: Refreshed rollup demo.readings_1h: 6 rows in 1 window
-- tag: REFRESH MATERIALIZED VIEW
-- jdbc count: 6
REFRESH MATERIALIZED ROLLUP demo.readings_1h;

-- columns: device|buckets|n
-- row: pump-1|3|61
-- row: pump-2|3|61
-- row: pump-3|1|1
SELECT device, count(*) AS buckets, sum(n) AS n FROM demo.readings_1h GROUP BY device
ORDER BY device;

-- error: Cannot INSERT INTO demo.readings_1h: it is a rollup of demo.readings, whose rows Timelake computes
-- sqlstate: 22023
INSERT INTO demo.readings_1h VALUES ('pump-1', '2026-01-01 10:00:00+00', 1, 1);

-- error: Cannot drop demo.readings: the rollups demo.readings_1h are computed from it
-- sqlstate: 22023
DROP TABLE demo.readings;

-- Schema changes: rows written before a new column read NULL in it.
-- message: Altered table demo.readings: added note VARCHAR
-- tag: ALTER TABLE
ALTER TABLE demo.readings ADD COLUMN note VARCHAR;

-- message: Inserted 1 row into demo.readings
-- tag: INSERT 0 1
INSERT INTO demo.readings VALUES ('pump-4', '2026-01-03 00:00:00+00', 4.5, 'new');

-- row: pump-3|NULL
-- row: pump-4|new
-- shell row: pump-3|
-- shell row: pump-4|new
SELECT device, note FROM demo.readings WHERE time >= '2026-01-02' ORDER BY device;

-- message: Altered table demo.readings: renamed column note to remark
-- tag: ALTER TABLE
ALTER TABLE demo.readings RENAME COLUMN note TO remark;

-- message: Altered table demo.readings: dropped column remark
-- tag: ALTER TABLE
ALTER TABLE demo.readings DROP COLUMN remark;

-- error: Cannot rename column 'time' of demo.readings: it is the table's time column
-- sqlstate: 22023
ALTER TABLE demo.readings RENAME COLUMN time TO ts;

-- error: Cannot drop column 'time' of demo.readings: it is the table's time column
-- sqlstate: 22023
ALTER TABLE demo.readings DROP COLUMN time;

-- error: Cannot rename demo.readings: the rollups demo.readings_1h are computed from it by name
-- sqlstate: 22023
ALTER TABLE demo.readings RENAME TO pumps;

-- message: Renamed table demo.equipment to demo.assets
-- tag: ALTER TABLE
ALTER TABLE demo.equipment RENAME TO assets;

-- message: Truncated demo.assets: removed 1 row
-- tag: TRUNCATE TABLE
TRUNCATE demo.assets;

-- row: 0
SELECT count(*) FROM demo.assets;

-- A table from a query: a time-series table with WITH, a plain one without.
-- message: Created table demo.peaks with 21 rows
-- tag: SELECT 21
CREATE TABLE demo.peaks WITH (time_column = 'time', series_key = 'device') AS
  SELECT device, time, value FROM demo.readings WHERE value >= 10;

-- SELECT * carries the insertion time column: the copy keeps the insertion times as its own.
-- message: Created table demo.copy with 21 rows
-- tag: SELECT 21
CREATE TABLE demo.copy WITH (time_column = 'time', series_key = 'device') AS
  SELECT * FROM demo.readings WHERE value >= 10;

-- message: Dropped table demo.copy
-- tag: DROP TABLE
DROP TABLE demo.copy;

-- message: Created table demo.devices with 4 rows
-- tag: SELECT 4
CREATE TABLE demo.devices AS SELECT DISTINCT device FROM demo.readings;

-- row: pump-1
-- row: pump-2
-- row: pump-3
-- row: pump-4
SELECT * FROM demo.devices ORDER BY device;

-- columns: namespace|name|kind
-- row: demo|assets|time-series
-- row: demo|devices|plain
-- row: demo|peaks|time-series
-- row: demo|readings|time-series
-- row: demo|readings_1h|rollup
SHOW TABLES;

-- A correction of a value column: written as the newest write of the rows it selects.
-- message: Updated 1 row in demo.readings
-- tag: UPDATE 1
-- jdbc count: 1
UPDATE demo.readings SET value = value WHERE device = 'pump-1' AND time = '2026-01-01 12:30:00+00';

-- error: Cannot UPDATE column 'time' of demo.readings: it is part of a row's key
-- sqlstate: 22023
UPDATE demo.readings SET time = now() WHERE device = 'pump-1';

-- Refused, each naming the way that works.

-- Every copy of the selected keys goes, in one commit.
-- message: Deleted 0 rows from demo.readings
-- tag: DELETE 0
DELETE FROM demo.readings WHERE device = 'pump-1' AND value > 1000;

-- A plain table loses the rows where the condition holds.
-- message: Deleted 0 rows from demo.devices
-- tag: DELETE 0
DELETE FROM demo.devices WHERE device = 'pump-9';

-- error: Cannot CREATE INDEX on demo.readings: a Timelake table is kept ordered by its series key and time
-- sqlstate: 22023
CREATE INDEX readings_device ON demo.readings (device);

-- Mistakes: a table or column that does not exist.
-- error: Table demo.nope does not exist in
-- sqlstate: 42P01
SELECT * FROM demo.nope;

-- error: Table demo.nope does not exist in
-- sqlstate: 42P01
INSERT INTO demo.nope VALUES ('pump-1', '2026-01-01 10:00:00+00', 1.0);

-- error: Binder Error: Referenced column "nope" not found in FROM clause!
-- sqlstate: 42703
SELECT nope FROM demo.readings;

-- error: Cannot drop demo.nope: it does not exist
-- sqlstate: 42P01
DROP TABLE demo.nope;

-- message: Table demo.nope does not exist
-- tag: DROP TABLE
DROP TABLE IF EXISTS demo.nope;

-- A view of the lake: its query is read where it is named, copies removed.
-- message: Created view demo.hot
-- tag: OTHER
CREATE VIEW demo.hot AS SELECT device, max(value) AS top FROM demo.readings GROUP BY device;

-- columns: device|top
-- row: pump-1|20.0
-- more rows
SELECT * FROM demo.hot ORDER BY device;

-- message: Dropped view demo.hot
-- tag: OTHER
DROP VIEW demo.hot;

-- A prepared statement with typed parameters.
-- message: PREPARE
-- tag: OTHER
PREPARE by_device(text) AS SELECT count(*) AS n FROM demo.readings WHERE device = $1;

-- columns: n
-- row: 61
EXECUTE by_device('pump-1');

-- The table and its rollup together.
-- message: Dropped table demo.readings
-- tag: DROP TABLE
DROP TABLE demo.readings CASCADE;

-- columns: namespace|name|kind
-- row: demo|assets|time-series
-- row: demo|devices|plain
-- row: demo|peaks|time-series
SHOW TABLES;

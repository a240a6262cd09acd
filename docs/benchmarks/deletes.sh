#!/usr/bin/env bash
# DELETE and UPDATE on a month of minute readings of 100 devices (4.32 M rows) with a daily
# rollup: ./docs/benchmarks/deletes.sh [TIMELAKE], TIMELAKE a `timelake` launcher (default this
# checkout's ./timelake). Prints each statement's time (the shell's .timer) and the answers of a
# routed daily query before and after, with routing on and off.
set -euo pipefail
timelake="${1:-$(cd "$(dirname "$0")/../.." && pwd)/timelake}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
daily="SELECT count(*), sum(n), round(sum(total), 3) FROM (SELECT device, time_bucket(INTERVAL '1 day', time) AS day, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY ALL);"
{
  echo "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column = 'time', series_key = 'device');"
  echo "INSERT INTO iot.r SELECT 'd' || (i % 100), TIMESTAMPTZ '2026-01-01 00:00:00+00' + (i // 100) * INTERVAL '1 minute', i % 997 FROM range(0, 4320000) t(i);"
  echo "CREATE MATERIALIZED ROLLUP iot.r_1d AS SELECT device, time_bucket(INTERVAL '1 day', time) AS bucket, count(*) AS n, sum(value) AS total FROM iot.r GROUP BY device, bucket;"
  echo ".timer on"
  echo "$daily"
  echo "DELETE FROM iot.r WHERE device = 'd7';"
  echo "REFRESH MATERIALIZED ROLLUP iot.r_1d;"
  echo "DELETE FROM iot.r WHERE time >= '2026-01-15 10:00:00+00' AND time < '2026-01-15 11:00:00+00';"
  echo "REFRESH MATERIALIZED ROLLUP iot.r_1d;"
  echo "UPDATE iot.r SET value = value / 10 WHERE device IN ('d1', 'd2') AND time >= '2026-01-20' AND time < '2026-01-21';"
  echo "REFRESH MATERIALIZED ROLLUP iot.r_1d;"
  echo "$daily"
  echo "SET timelake.rollup_routing = false;"
  echo "$daily"
} | "$timelake" --warehouse "$work/wh" sql 2>&1 | grep -v '^$'

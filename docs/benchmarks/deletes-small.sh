#!/usr/bin/env bash
# DELETE, UPDATE and the rollup refreshes after them on the IIoT small plant (1,000 tags, 30 days,
# ~415 M readings) with an hourly and a daily rollup: ./docs/benchmarks/deletes-small.sh WAREHOUSE
# [TIMELAKE]. WAREHOUSE holds the plant as `timelake bench generate --scale small` and `timelake
# maintain iiot.readings` leave it (it is changed: run it on a copy you can throw away); TIMELAKE
# is a `timelake` launcher (default this checkout's ./timelake). Prints each statement's time (the
# shell's .timer), the daily-stats answer routed before and after and unrouted after, and a sampled
# verification of both rollups.
set -euo pipefail
warehouse="$1"
timelake="${2:-$(cd "$(dirname "$0")/../.." && pwd)/timelake}"
stats="avg(value) AS avg_value, min(value) AS min_value, max(value) AS max_value, sum(value) AS sum_value, count(*) AS n"
daily="SELECT count(*) AS cells, sum(n) AS readings, round(sum(total), 1) AS total FROM (SELECT tag, time_bucket(INTERVAL '1 day', time) AS day, avg(value) AS a, min(value) AS lo, max(value) AS hi, count(*) AS n, sum(value) AS total FROM iiot.readings GROUP BY tag, day);"
{
  echo ".timer on"
  echo "CREATE MATERIALIZED ROLLUP iiot.readings_1h AS SELECT tag, time_bucket(INTERVAL '1 hour', time) AS bucket, $stats FROM iiot.readings GROUP BY tag, bucket WITH (refresh_interval = 'off');"
  echo "CREATE MATERIALIZED ROLLUP iiot.readings_1d AS SELECT tag, time_bucket(INTERVAL '1 day', time) AS bucket, $stats FROM iiot.readings GROUP BY tag, bucket WITH (refresh_interval = 'off');"
  echo "$daily"
  echo "-- delete one tag's 30 days"
  echo "DELETE FROM iiot.readings WHERE tag = 'L07-M03-T2';"
  echo "REFRESH MATERIALIZED ROLLUP iiot.readings_1h;"
  echo "REFRESH MATERIALIZED ROLLUP iiot.readings_1d;"
  echo "-- delete one hour of all tags"
  echo "DELETE FROM iiot.readings WHERE time >= TIMESTAMPTZ '2026-01-15 10:00:00+00' AND time < TIMESTAMPTZ '2026-01-15 11:00:00+00';"
  echo "REFRESH MATERIALIZED ROLLUP iiot.readings_1h;"
  echo "REFRESH MATERIALIZED ROLLUP iiot.readings_1d;"
  echo "-- update one day of one line's tags"
  echo "UPDATE iiot.readings SET value = value / 10 WHERE tag IN (SELECT tag FROM iiot.tags WHERE line = 'L0002') AND time >= TIMESTAMPTZ '2026-01-20 00:00:00+00' AND time < TIMESTAMPTZ '2026-01-21 00:00:00+00';"
  echo "REFRESH MATERIALIZED ROLLUP iiot.readings_1h;"
  echo "REFRESH MATERIALIZED ROLLUP iiot.readings_1d;"
  echo "$daily"
  echo "SET timelake.rollup_routing = false;"
  echo "$daily"
} | "$timelake" --warehouse "$warehouse" sql 2>&1 | grep -v '^$'
for rollup in iiot.readings_1h iiot.readings_1d; do
  "$timelake" --warehouse "$warehouse" rollup verify "$rollup" --sample 5 --seed 7
done

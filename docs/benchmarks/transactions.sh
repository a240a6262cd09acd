#!/usr/bin/env bash
# What moving Timelake's own work off the client's connection and checking rewrites cost (issue
# 26), measured with two builds side by side: ./docs/benchmarks/transactions.sh OLD NEW, where OLD
# and NEW are `timelake` launchers (e.g. a worktree of the commit before and this checkout's
# ./timelake). Each build gets fresh warehouses under a temporary folder.
set -euo pipefail
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. INSERT … SELECT of 5 M rows twice, then 100 single-row INSERTs, through the SQL shell.
inserts() {
  local timelake="$1" warehouse="$work/inserts-$2"
  rm -rf "$warehouse"
  {
    echo ".timer on"
    echo "CREATE TABLE iot.b (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column = 'time', series_key = 'device', auto_maintain = 'false');"
    for day in 01 03; do
      echo "INSERT INTO iot.b SELECT 'd' || (i % 1000), TIMESTAMPTZ '2026-$day-01 00:00:00+00' + i * INTERVAL '1 second', i FROM range(0, 5000000) t(i);"
    done
    for i in $(seq 1 100); do
      echo "INSERT INTO iot.b VALUES ('p', TIMESTAMPTZ '2026-05-01 00:00:00+00' + INTERVAL '$i second', $i);"
    done
  } | "$timelake" --warehouse "$warehouse" sql 2>&1 >/dev/null | awk '/Run Time/ {print $3}' >"$work/t"
  echo "$2: INSERT … SELECT 5 M rows: $(sed -n 2p "$work/t") s, $(sed -n 3p "$work/t") s"
  tail -n 100 "$work/t" | sort -n | awk '{a[NR] = $1} END {print "  single-row INSERT: median " a[int(NR / 2)] " s, p90 " a[int(NR * 0.9)] " s"}'
}

# 2. 100 single-row INSERTs inside one BEGIN … COMMIT (new build only: the old one lost data).
transaction() {
  local timelake="$1" warehouse="$work/transaction"
  rm -rf "$warehouse"
  {
    echo "CREATE TABLE iot.b (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column = 'time', series_key = 'device', auto_maintain = 'false');"
    echo ".timer on"
    echo "BEGIN;"
    for i in $(seq 1 100); do
      echo "INSERT INTO iot.b VALUES ('p', TIMESTAMPTZ '2026-05-01 00:00:00+00' + INTERVAL '$i second', $i);"
    done
    echo "COMMIT;"
  } | "$timelake" --warehouse "$warehouse" sql 2>&1 >/dev/null | awk '/Run Time/ {print $3}' >"$work/t"
  sed -n '3,102p' "$work/t" | sort -n | awk '{a[NR] = $1; s += $1} END {print "held INSERT inside a transaction: median " a[int(NR / 2)] " s, all 100: " s " s"}'
  echo "  COMMIT of the 100 rows: $(tail -1 "$work/t") s"
}

# 3. A full `maintain` of 30 days × 100 series (25.9 M readings, 1 % sent twice) in 3 appends.
maintenance() {
  local timelake="$1" warehouse="$work/maintain-$2"
  rm -rf "$warehouse"
  local rows="SELECT 'd' || (i % 100), TIMESTAMPTZ '2026-01-01 00:00:00+00' + CAST(floor(i / 100) AS BIGINT) * INTERVAL '10 seconds', i FROM range(0, 25920000) t(i)"
  "$timelake" --warehouse "$warehouse" sql \
    -c "CREATE TABLE iot.m (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH (time_column = 'time', series_key = 'device', auto_maintain = 'false')" \
    -c "INSERT INTO iot.m $rows WHERE i % 3 = 0" -c "INSERT INTO iot.m $rows WHERE i % 3 = 1" \
    -c "INSERT INTO iot.m $rows WHERE i % 3 = 2 OR i % 100 = 7" >/dev/null
  local start end
  start=$(date +%s.%N)
  "$timelake" --warehouse "$warehouse" maintain iot.m >/dev/null
  end=$(date +%s.%N)
  echo "$2: maintain (30 partitions, 90 files, 25.9 M rows): $(echo "$end - $start" | bc) s"
}

for run in 1 2; do
  inserts "$1" old
  inserts "$2" new
done
transaction "$2"
for run in 1 2; do
  maintenance "$1" old
  maintenance "$2" new
done

-- Timelake's signal aggregates, as DuckDB macros. Installed in every Timelake engine; `timelake
-- functions` prints this file so that plain DuckDB can run them on Timelake tables too.
--
-- Every function skips rows whose time or value is NULL. Readings are taken in (time, value)
-- order, so ties in time have one answer. States are plain structs and lists (docs/SPEC.md, §7).
-- Names starting with __timelake_ are helpers, not API. Each statement ends with a line ";".

-- The group's readings as {us, value}, sorted by time then value; NULL for a group without any.
CREATE OR REPLACE MACRO __timelake_points(t, v) AS
  list_sort(list({'us': epoch_us(t), 'value': CAST(v AS DOUBLE)})
    FILTER (WHERE t IS NOT NULL AND v IS NOT NULL))
;

-- A time-weighted state from sorted points: the first and last reading, the area under the
-- signal (value × seconds) for both methods, and the seconds between the first and last reading.
CREATE OR REPLACE MACRO __timelake_tw_state_of(p) AS
  CASE WHEN len(p) > 0 THEN {
    'first_time': make_timestamptz(p[1].us),
    'first_value': p[1].value,
    'last_time': make_timestamptz(p[-1].us),
    'last_value': p[-1].value,
    'linear_sum': coalesce(list_sum(list_transform(list_zip(p[:-2], p[2:]),
        lambda x: (x[1].value / 2 + x[2].value / 2) * ((x[2].us - x[1].us) / 1e6))), 0),
    'forward_fill_sum': coalesce(list_sum(list_transform(list_zip(p[:-2], p[2:]),
        lambda x: x[1].value * ((x[2].us - x[1].us) / 1e6))), 0),
    'duration_seconds': (p[-1].us - p[1].us) / 1e6}
  END
;

-- Merges time-weighted states, sorted by first time, that follow each other in time: the segment
-- between the last reading of one and the first of the next is added to the area.
CREATE OR REPLACE MACRO __timelake_tw_merge(s) AS
  CASE
    WHEN s IS NULL OR len(s) = 0 THEN NULL
    -- States that share an instant overlap too: readings at one instant are taken in value
    -- order, which the states no longer know; adjacent buckets of one series never share one.
    WHEN list_bool_or(list_transform(list_zip(s[:-2], s[2:]),
        lambda x: x[2].first_time <= x[1].last_time))
      THEN error('time_weighted_state: the states overlap in time; states merge only along time '
        || '(one series, adjacent time ranges), not across series')
    ELSE {
      'first_time': s[1].first_time,
      'first_value': s[1].first_value,
      'last_time': s[-1].last_time,
      'last_value': s[-1].last_value,
      'linear_sum': list_sum(list_transform(s, lambda x: x.linear_sum))
        + coalesce(list_sum(list_transform(list_zip(s[:-2], s[2:]),
            lambda x: (x[1].last_value / 2 + x[2].first_value / 2)
              * ((epoch_us(x[2].first_time) - epoch_us(x[1].last_time)) / 1e6))), 0),
      'forward_fill_sum': list_sum(list_transform(s, lambda x: x.forward_fill_sum))
        + coalesce(list_sum(list_transform(list_zip(s[:-2], s[2:]),
            lambda x: x[1].last_value
              * ((epoch_us(x[2].first_time) - epoch_us(x[1].last_time)) / 1e6))), 0),
      'duration_seconds': (epoch_us(s[-1].last_time) - epoch_us(s[1].first_time)) / 1e6}
  END
;

CREATE OR REPLACE MACRO __timelake_tw_states(s) AS
  list_sort(list(s) FILTER (WHERE s IS NOT NULL))
;

CREATE OR REPLACE MACRO __timelake_method(fn, m) AS
  CASE WHEN m IN ('linear', 'forward_fill') THEN m
    ELSE error(fn || ': the method must be ''linear'' or ''forward_fill'', not '
      || coalesce('''' || m || '''', 'NULL'))
  END
;

CREATE OR REPLACE MACRO __timelake_unit_seconds(fn, u) AS
  CASE WHEN epoch(TRY_CAST(u AS INTERVAL)) > 0 THEN epoch(TRY_CAST(u AS INTERVAL))
    ELSE error(fn || ': the unit must be a positive interval such as ''1 hour'', not '
      || coalesce('''' || CAST(u AS VARCHAR) || '''', 'NULL'))
  END
;

-- The mean of a state: its area over its duration; a state of one instant has its last value.
CREATE OR REPLACE MACRO __timelake_tw_mean(st, m) AS
  CASE __timelake_method('time_weighted_mean', m)
    WHEN 'linear' THEN
      CASE WHEN st.duration_seconds > 0 THEN st.linear_sum / st.duration_seconds
        ELSE st.last_value END
    ELSE
      CASE WHEN st.duration_seconds > 0 THEN st.forward_fill_sum / st.duration_seconds
        ELSE st.last_value END
  END
;

CREATE OR REPLACE MACRO __timelake_integral(st, m, unit_seconds) AS
  CASE __timelake_method('integral', m)
    WHEN 'linear' THEN st.linear_sum / unit_seconds
    ELSE st.forward_fill_sum / unit_seconds
  END
;

-- A method or a unit: integral's optional third argument.
CREATE OR REPLACE MACRO __timelake_is_method(x) AS x IN ('linear', 'forward_fill')
;

-- integral's third argument when it is not a method: a unit, or a mistyped method.
CREATE OR REPLACE MACRO __timelake_unit_or_method_seconds(x) AS
  CASE WHEN epoch(TRY_CAST(x AS INTERVAL)) > 0 THEN epoch(TRY_CAST(x AS INTERVAL))
    ELSE error('integral: the third argument must be a method (''linear'' or ''forward_fill'')'
      || ' or a positive unit interval such as ''1 hour'', not '
      || coalesce('''' || x || '''', 'NULL'))
  END
;

CREATE OR REPLACE MACRO time_weighted_state(
    t TIMESTAMPTZ, v DOUBLE) AS __timelake_tw_state_of(__timelake_points(t, v)),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE))
    AS __timelake_tw_merge(__timelake_tw_states(s))
;

CREATE OR REPLACE MACRO time_weighted_mean(
    t TIMESTAMPTZ, v DOUBLE) AS __timelake_tw_mean(time_weighted_state(t, v), 'linear'),
  (t TIMESTAMPTZ, v DOUBLE, method VARCHAR)
    AS __timelake_tw_mean(time_weighted_state(t, v), method),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE))
    AS __timelake_tw_mean(time_weighted_state(s), 'linear'),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE),
    method VARCHAR)
    AS __timelake_tw_mean(time_weighted_state(s), method)
;

CREATE OR REPLACE MACRO integral(
    t TIMESTAMPTZ, v DOUBLE) AS __timelake_integral(time_weighted_state(t, v), 'linear', 1),
  (t TIMESTAMPTZ, v DOUBLE, method_or_unit VARCHAR)
    AS __timelake_integral(time_weighted_state(t, v),
      CASE WHEN __timelake_is_method(method_or_unit) THEN method_or_unit ELSE 'linear' END,
      CASE WHEN __timelake_is_method(method_or_unit) THEN 1
        ELSE __timelake_unit_or_method_seconds(method_or_unit) END),
  (t TIMESTAMPTZ, v DOUBLE, unit INTERVAL)
    AS __timelake_integral(time_weighted_state(t, v), 'linear',
      __timelake_unit_seconds('integral', unit)),
  (t TIMESTAMPTZ, v DOUBLE, method VARCHAR, unit VARCHAR)
    AS __timelake_integral(time_weighted_state(t, v), method,
      __timelake_unit_seconds('integral', unit)),
  (t TIMESTAMPTZ, v DOUBLE, method VARCHAR, unit INTERVAL)
    AS __timelake_integral(time_weighted_state(t, v), method,
      __timelake_unit_seconds('integral', unit)),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE))
    AS __timelake_integral(time_weighted_state(s), 'linear', 1),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE),
    method_or_unit VARCHAR)
    AS __timelake_integral(time_weighted_state(s),
      CASE WHEN __timelake_is_method(method_or_unit) THEN method_or_unit ELSE 'linear' END,
      CASE WHEN __timelake_is_method(method_or_unit) THEN 1
        ELSE __timelake_unit_or_method_seconds(method_or_unit) END),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE),
    unit INTERVAL)
    AS __timelake_integral(time_weighted_state(s), 'linear',
      __timelake_unit_seconds('integral', unit)),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE),
    method VARCHAR, unit VARCHAR)
    AS __timelake_integral(time_weighted_state(s), method,
      __timelake_unit_seconds('integral', unit)),
  (s STRUCT(first_time TIMESTAMPTZ, first_value DOUBLE, last_time TIMESTAMPTZ,
      last_value DOUBLE, linear_sum DOUBLE, forward_fill_sum DOUBLE, duration_seconds DOUBLE),
    method VARCHAR, unit INTERVAL)
    AS __timelake_integral(time_weighted_state(s), method,
      __timelake_unit_seconds('integral', unit))
;

-- Gaps: the gaps between consecutive readings longer than a threshold, as a state of the first
-- and last reading time, the threshold, and the number and total seconds of those gaps.
CREATE OR REPLACE MACRO __timelake_threshold(fn, seconds) AS
  CASE WHEN seconds >= 0 AND isfinite(seconds) THEN seconds
    ELSE error(fn || ': the threshold must be an interval or a finite number of seconds, zero or'
      || ' more, not '
      || coalesce(CAST(seconds AS VARCHAR) || ' s', 'NULL'))
  END
;

CREATE OR REPLACE MACRO __timelake_interval_seconds(fn, x) AS
  CASE WHEN TRY_CAST(x AS INTERVAL) IS NOT NULL THEN epoch(TRY_CAST(x AS INTERVAL))
    ELSE error(fn || ': the threshold must be an interval such as ''5 minutes'' or a number of '
      || 'seconds, not ' || coalesce('''' || CAST(x AS VARCHAR) || '''', 'NULL'))
  END
;

CREATE OR REPLACE MACRO __timelake_gap_state_of(l, threshold) AS
  CASE WHEN len(l) > 0 THEN {
    'first_time': make_timestamptz(l[1]),
    'last_time': make_timestamptz(l[-1]),
    'threshold_seconds': CAST(threshold AS DOUBLE),
    'gap_count': CAST(len(list_filter(list_transform(list_zip(l[:-2], l[2:]),
        lambda x: x[2] - x[1]), lambda d: d > threshold * 1e6)) AS BIGINT),
    'gap_seconds': coalesce(list_sum(list_filter(list_transform(list_zip(l[:-2], l[2:]),
        lambda x: x[2] - x[1]), lambda d: d > threshold * 1e6)), 0) / 1e6}
  END
;

-- No lambda refers to s itself: s stands for the aggregate of the states, which DuckDB would then
-- evaluate once per element (750 states of one series took 30 s); pairs carry the threshold.
CREATE OR REPLACE MACRO __timelake_gap_merge(s) AS
  CASE
    WHEN s IS NULL OR len(s) = 0 THEN NULL
    WHEN list_bool_or(list_transform(list_zip(s[:-2], s[2:]),
        lambda x: x[1].threshold_seconds <> x[2].threshold_seconds))
      THEN error('gap_state: the states have different thresholds; merge states of one threshold')
    WHEN list_bool_or(list_transform(list_zip(s[:-2], s[2:]),
        lambda x: x[2].first_time < x[1].last_time))
      THEN error('gap_state: the states overlap in time; states merge only along time '
        || '(one series, adjacent time ranges), not across series')
    ELSE {
      'first_time': s[1].first_time,
      'last_time': s[-1].last_time,
      'threshold_seconds': s[1].threshold_seconds,
      'gap_count': CAST(list_sum(list_transform(s, lambda x: x.gap_count))
        + len(list_filter(list_zip(s[:-2], s[2:]),
          lambda x: epoch_us(x[2].first_time) - epoch_us(x[1].last_time)
            > x[1].threshold_seconds * 1e6)) AS BIGINT),
      'gap_seconds': list_sum(list_transform(s, lambda x: x.gap_seconds))
        + coalesce(list_sum(list_transform(list_filter(list_zip(s[:-2], s[2:]),
            lambda x: epoch_us(x[2].first_time) - epoch_us(x[1].last_time)
              > x[1].threshold_seconds * 1e6),
          lambda x: epoch_us(x[2].first_time) - epoch_us(x[1].last_time))), 0) / 1e6}
  END
;

CREATE OR REPLACE MACRO __timelake_times(t) AS
  list_sort(list(epoch_us(t)) FILTER (WHERE t IS NOT NULL))
;

-- The gap state of a group's times for a threshold in seconds, checked in the name of fn.
CREATE OR REPLACE MACRO __timelake_gaps(fn, t, seconds) AS
  __timelake_gap_state_of(__timelake_times(t), __timelake_threshold(fn, seconds))
;

CREATE OR REPLACE MACRO gap_state(
    t TIMESTAMPTZ, threshold DOUBLE) AS __timelake_gaps('gap_state', t, threshold),
  (t TIMESTAMPTZ, threshold INTERVAL) AS __timelake_gaps('gap_state', t, epoch(threshold)),
  (t TIMESTAMPTZ, threshold VARCHAR)
    AS __timelake_gaps('gap_state', t, __timelake_interval_seconds('gap_state', threshold)),
  (s STRUCT(first_time TIMESTAMPTZ, last_time TIMESTAMPTZ, threshold_seconds DOUBLE,
      gap_count BIGINT, gap_seconds DOUBLE))
    AS __timelake_gap_merge(list_sort(list(s) FILTER (WHERE s IS NOT NULL)))
;

CREATE OR REPLACE MACRO gap_count(
    t TIMESTAMPTZ, threshold DOUBLE) AS __timelake_gaps('gap_count', t, threshold).gap_count,
  (t TIMESTAMPTZ, threshold INTERVAL)
    AS __timelake_gaps('gap_count', t, epoch(threshold)).gap_count,
  (t TIMESTAMPTZ, threshold VARCHAR)
    AS __timelake_gaps('gap_count', t,
      __timelake_interval_seconds('gap_count', threshold)).gap_count,
  (s STRUCT(first_time TIMESTAMPTZ, last_time TIMESTAMPTZ, threshold_seconds DOUBLE,
      gap_count BIGINT, gap_seconds DOUBLE))
    AS gap_state(s).gap_count
;

CREATE OR REPLACE MACRO gap_seconds(
    t TIMESTAMPTZ, threshold DOUBLE) AS __timelake_gaps('gap_seconds', t, threshold).gap_seconds,
  (t TIMESTAMPTZ, threshold INTERVAL)
    AS __timelake_gaps('gap_seconds', t, epoch(threshold)).gap_seconds,
  (t TIMESTAMPTZ, threshold VARCHAR)
    AS __timelake_gaps('gap_seconds', t,
      __timelake_interval_seconds('gap_seconds', threshold)).gap_seconds,
  (s STRUCT(first_time TIMESTAMPTZ, last_time TIMESTAMPTZ, threshold_seconds DOUBLE,
      gap_count BIGINT, gap_seconds DOUBLE))
    AS gap_state(s).gap_seconds
;

-- M4: the first, smallest, largest and last points in time order, without repeats. first is the
-- earliest (smaller value among equal times), last the latest (larger value among equal times),
-- smallest and largest the earliest among equal values. Largest is found as the smallest negation.
CREATE OR REPLACE MACRO __timelake_m4_of(f, lo, hi, l) AS
  CASE WHEN f IS NOT NULL THEN list_sort(list_distinct([
    {'time': f.time, 'value': f.value},
    {'time': lo.time, 'value': lo.value},
    {'time': hi.time, 'value': -hi.negated},
    {'time': l.time, 'value': l.value}]))
  END
;

CREATE OR REPLACE MACRO m4(t TIMESTAMPTZ, v DOUBLE) AS __timelake_m4_of(
    min({'time': t, 'value': v}) FILTER (WHERE t IS NOT NULL AND v IS NOT NULL AND NOT isnan(v)),
    min({'value': v, 'time': t}) FILTER (WHERE t IS NOT NULL AND v IS NOT NULL AND NOT isnan(v)),
    min({'negated': -v, 'time': t}) FILTER (WHERE t IS NOT NULL AND v IS NOT NULL AND NOT isnan(v)),
    max({'time': t, 'value': v}) FILTER (WHERE t IS NOT NULL AND v IS NOT NULL AND NOT isnan(v))),
  (points STRUCT(time TIMESTAMPTZ, value DOUBLE)[]) AS __timelake_m4_of(
    min(points[1]) FILTER (WHERE len(points) > 0),
    min(list_sort(list_transform(points, lambda p: {'value': p.value, 'time': p.time}))[1])
      FILTER (WHERE len(points) > 0),
    min(list_sort(list_transform(points, lambda p: {'negated': -p.value, 'time': p.time}))[1])
      FILTER (WHERE len(points) > 0),
    max(points[-1]) FILTER (WHERE len(points) > 0))
;

-- Percentiles (exact ones are DuckDB's quantile_cont and quantile_disc, which do not merge).
-- approx_percentile reads a mergeable sketch: values
-- fall into logarithmic buckets of ratio gamma = (1 + e) / (1 - e) for a relative error e (default
-- 0.01), so every value of a bucket is within e of the bucket's representative 2 gamma^i /
-- (gamma + 1); the answer is the representative of the bucket holding the reading of nearest rank
-- ceil(q n). Bucket keys: 0 for zero, 10^12 + i for positive values, -(10^12 + i) for negative
-- ones (sorted like the values; |i| stays below 10^12 for relative errors from 0.000001);
-- magnitudes below 2.2250738585072014e-308 count as that; NULL, NaN and infinite values are
-- skipped.
CREATE OR REPLACE MACRO __timelake_relative_error(fn, e) AS
  CASE WHEN e >= 0.000001 AND e < 1 THEN CAST(e AS DOUBLE)
    ELSE error(fn || ': the relative error must be at least 0.000001 and below 1, not '
      || coalesce(CAST(e AS VARCHAR), 'NULL'))
  END
;

CREATE OR REPLACE MACRO __timelake_quantile(fn, q) AS
  CASE WHEN q >= 0 AND q <= 1 THEN q
    ELSE error(fn || ': q must be between 0 and 1, not ' || coalesce(CAST(q AS VARCHAR), 'NULL'))
  END
;

-- The arithmetic is safe for every input (DuckDB may evaluate a CASE branch it does not take).
CREATE OR REPLACE MACRO __timelake_log_index(v, e) AS
  CAST(ceil(ln(greatest(abs(CASE WHEN isfinite(v) AND v <> 0 THEN v ELSE 1 END),
    2.2250738585072014e-308)) / ln((1 + e) / (1 - e))) AS BIGINT)
;

CREATE OR REPLACE MACRO __timelake_sketch_key(v, e) AS
  CASE
    WHEN v IS NULL OR NOT isfinite(v) THEN NULL
    WHEN v > 0 THEN 1000000000000 + __timelake_log_index(v, e)
    WHEN v < 0 THEN -(1000000000000 + __timelake_log_index(v, e))
    ELSE 0
  END
;

-- 2 gamma^i / (gamma + 1), through logarithms so that it stays finite next to the largest double.
CREATE OR REPLACE MACRO __timelake_bucket_value(i, e) AS
  least(exp(i * ln((1 + e) / (1 - e)) + ln(2 / ((1 + e) / (1 - e) + 1))), 1.7976931348623157e308)
;

CREATE OR REPLACE MACRO __timelake_sketch_value(k, e) AS
  CASE
    WHEN k > 0 THEN __timelake_bucket_value(k - 1000000000000, e)
    WHEN k < 0 THEN -__timelake_bucket_value(-k - 1000000000000, e)
    ELSE 0
  END
;

CREATE OR REPLACE MACRO __timelake_sketch_histogram(v, e) AS
  histogram(__timelake_sketch_key(CAST(v AS DOUBLE), e)) FILTER (WHERE isfinite(v))
;

CREATE OR REPLACE MACRO __timelake_sketch_raw(v, e) AS
  CASE WHEN count(v) FILTER (WHERE isfinite(v)) > 0 THEN {
    'relative_error': e,
    'count': count(v) FILTER (WHERE isfinite(v)),
    'buckets': list_sort(list_transform(map_entries(__timelake_sketch_histogram(v, e)),
      lambda b: {'key': b.key, 'count': CAST(b.value AS BIGINT)}))}
  END
;

-- Sums the counts of equal keys of several sketches' buckets.
CREATE OR REPLACE MACRO __timelake_bucket_sum(b) AS
  (SELECT list({'key': k, 'count': c} ORDER BY k)
    FROM (SELECT x.key AS k, CAST(sum(x.count) AS BIGINT) AS c
      FROM (SELECT unnest(b) AS x) GROUP BY x.key))
;

CREATE OR REPLACE MACRO __timelake_sketch_merge(l) AS
  CASE
    WHEN l IS NULL OR len(l) = 0 THEN NULL
    WHEN list_bool_or(list_transform(list_zip(l[:-2], l[2:]),
        lambda x: x[1].relative_error <> x[2].relative_error))
      THEN error('percentile_sketch: the sketches have different relative errors; merge sketches'
        || ' of one relative error')
    ELSE {
      'relative_error': l[1].relative_error,
      'count': CAST(list_sum(list_transform(l, lambda x: x.count)) AS BIGINT),
      'buckets': __timelake_bucket_sum(flatten(list_transform(l, lambda x: x.buckets)))}
  END
;

-- Several sketches as one without summing equal keys: their buckets concatenated and sorted, keys
-- repeating. A percentile reads it as it reads a merged sketch, for a fraction of the cost of
-- summing (what routing merges stored sketches with); percentile_sketch(s) sums.
CREATE OR REPLACE MACRO __timelake_sketch_union(s) AS
  CASE
    WHEN count(s) = 0 THEN NULL
    WHEN min(s.relative_error) <> max(s.relative_error)
      THEN error('percentile_sketch: the sketches have different relative errors; merge sketches'
        || ' of one relative error')
    ELSE {
      'relative_error': min(s.relative_error),
      'count': CAST(sum(s.count) AS BIGINT),
      'buckets': list_sort(flatten(list(s.buckets) FILTER (WHERE s IS NOT NULL)))}
  END
;

-- A sketch whose buckets may repeat keys, with the counts of equal keys summed.
CREATE OR REPLACE MACRO __timelake_sketch_compact(s) AS
  CASE WHEN s IS NOT NULL THEN {
    'relative_error': s.relative_error,
    'count': s.count,
    'buckets': __timelake_bucket_sum(s.buckets)}
  END
;

-- The key of the bucket holding the reading of rank r: a running count over the sorted buckets,
-- carried with r in the accumulator (a lambda may not refer to an aggregate outside it).
CREATE OR REPLACE MACRO __timelake_rank_key(b, r) AS
  list_reduce(b,
    lambda acc, x: CASE WHEN acc.running >= acc.rank THEN acc
      ELSE {'running': acc.running + x.count, 'key': x.key, 'rank': acc.rank} END,
    {'running': CAST(0 AS BIGINT), 'key': CAST(NULL AS BIGINT), 'rank': CAST(r AS BIGINT)}).key
;

CREATE OR REPLACE MACRO __timelake_sketch_percentile(s, q) AS
  CASE WHEN __timelake_quantile('approx_percentile', q) IS NOT NULL AND s.count > 0 THEN
    __timelake_sketch_value(
      -- q as a decimal, so that 0.07 of 100 readings is rank 7, not 8.
      __timelake_rank_key(s.buckets, greatest(1, ceil(CAST(q AS DECIMAL(30, 12)) * s.count))),
      s.relative_error)
  END
;

CREATE OR REPLACE MACRO percentile_sketch(v DOUBLE) AS __timelake_sketch_raw(v, CAST(0.01 AS DOUBLE)),
  (v DOUBLE, relative_error DOUBLE)
    AS __timelake_sketch_raw(v, __timelake_relative_error('percentile_sketch', relative_error)),
  (s STRUCT(relative_error DOUBLE, count BIGINT, buckets STRUCT("key" BIGINT, count BIGINT)[]))
    AS __timelake_sketch_merge(list(s) FILTER (WHERE s IS NOT NULL))
;

CREATE OR REPLACE MACRO approx_percentile(v DOUBLE, q DOUBLE)
    AS __timelake_sketch_percentile(percentile_sketch(v), q),
  (v DOUBLE, q DOUBLE, relative_error DOUBLE)
    AS __timelake_sketch_percentile(percentile_sketch(v, relative_error), q),
  (s STRUCT(relative_error DOUBLE, count BIGINT, buckets STRUCT("key" BIGINT, count BIGINT)[]),
    q DOUBLE)
    AS __timelake_sketch_percentile(__timelake_sketch_union(s), q)
;

package dev.timelake.iiot;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The plant model as DuckDB SQL: the tag list, and the readings that arrive in a range of hours.
 * Every random choice is a {@code hash(seed, …)} of the thing it decides, so the rows of a query
 * depend only on the seed, the scale, the number of hours and the range asked for, never on which
 * other hours were generated, in which order, or on thread scheduling.
 *
 * <p>The hashes and what they decide:
 *
 * <ul>
 *   <li>{@code hash(seed, tag, 101…109)}: the tag's parameters (period, phase, base level, …).
 *   <li>{@code hash(seed, tag, k)} for sample {@code k} of a tag: its time jitter (bits 0–15),
 *       noise (bits 16–47, two uniform draws), quality (bits 48–57) and, in a resent copy, whether
 *       (bit 58) and by how much (bits 59–63) the value is corrected.
 *   <li>{@code hash(seed, tag, block, 1)} for each 10-minute block of a tag: whether the block's
 *       readings are delayed or resent (bits 0–31), whether and in which minute the block has a
 *       spike (bits 32–52) and the delay in hours (bits 53–63).
 *   <li>{@code hash(seed, machine, window, 2)} for each 4-hour window of a machine: whether the
 *       window has a downtime run (bits 0–20), the run's length (bits 21–41) and start (bits
 *       42–62).
 * </ul>
 *
 * <p>Times are milliseconds after {@link #START}. Hour {@code h} holds the readings timed in {@code
 * [h, h+1)}; they arrive in hour {@code h} unless delayed. A query for hours {@code [from, to)}
 * enumerates the samples of those hours plus the 10-minute blocks of the 48 hours before whose
 * delayed readings or resent copies arrive in the range; the SQL is layered so that each hash is
 * computed once per row (DuckDB inlines aliases reused within one SELECT).
 */
public final class PlantSql {
  /** The first instant of generated data. */
  public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  static final long HOUR_MS = 3_600_000;

  /** Delays and resends pick 10-minute blocks of one tag's readings. */
  static final long BLOCKS_PER_HOUR = 6;

  /** The longest store-and-forward delay and the latest a resent copy comes. */
  static final int MAX_DELAY_HOURS = 48;

  /** Share of blocks whose readings arrive 1–48 h late. */
  static final double DELAYED_SHARE = 0.02;

  /** Share of blocks whose readings are sent again 1–48 h later. */
  static final double RESENT_SHARE = 0.005;

  /**
   * Share of a tag's minutes that are a spike above its high limit: one minute in 2 % of blocks.
   */
  static final double SPIKE_SHARE = 0.002;

  /** Length of the windows in which a machine has at most one downtime run of 5–120 minutes. */
  static final int DOWNTIME_WINDOW_MINUTES = 240;

  /** Chance of a downtime run in a window: runs average 62.5 min, so 0.192 × 62.5 / 240 = 5 %. */
  static final double DOWNTIME_CHANCE = 0.192;

  private static final String PLANT =
      """
      plant AS (
        SELECT tag_index, machine_index, tag, line, machine, unit, period_ms,
          CAST(${u102} * period_ms AS BIGINT) AS phase_ms,
          base, amplitude, noise_amplitude, drift_amplitude, cycle_phase, drift_days, drift_phase,
          round(base - 1.8 * amplitude, 2) AS low,
          round(base + 1.8 * amplitude, 2) AS high
        FROM (
          SELECT *,
            amplitude * (0.05 + 0.1 * ${u105}) AS noise_amplitude,
            amplitude * 0.5 * ${u106} AS drift_amplitude
          FROM (
            SELECT *, base * (0.05 + 0.1 * ${u104}) AS amplitude
            FROM (
              SELECT tag_index, machine_index,
                printf('L%02d-M%02d-T%d', line_index + 1, machine_index % ${machinesPerLine} + 1,
                  tag_index % ${tagsPerMachine} + 1) AS tag,
                printf('L%04d', line_index + 1) AS line,
                printf('L%02d-M%02d', line_index + 1, machine_index % ${machinesPerLine} + 1)
                  AS machine,
                unit,
                CAST(2000 + 8000 * pow(${u101}, 0.66) AS BIGINT) AS period_ms,
                round(base_low + (base_high - base_low) * ${u103}, 1) AS base,
                2 * pi() * ${u107} AS cycle_phase,
                5 + 15 * ${u108} AS drift_days,
                2 * pi() * ${u109} AS drift_phase
              FROM (
                SELECT tag_index, tag_index // ${tagsPerMachine} AS machine_index,
                  tag_index // (${tagsPerMachine} * ${machinesPerLine}) AS line_index
                FROM range(${tags}) t(tag_index))
              JOIN (VALUES (0, 'degC', 40.0, 90.0), (1, 'bar', 2.0, 10.0), (2, 'm3/h', 20.0, 200.0),
                  (3, 'mm/s', 1.0, 8.0), (4, 'kW', 50.0, 500.0)) kinds(kind, unit, base_low, base_high)
                ON kind = (tag_index % ${tagsPerMachine}) % 5)))
      )""";

  private static final String READINGS =
      """
      WITH ${plant},
      signals AS (
        SELECT tag_index, machine_index, tag, period_ms, phase_ms, base, amplitude,
          noise_amplitude, drift_amplitude, cycle_phase, drift_days, drift_phase, high
        FROM plant
      ),
      late_blocks AS (
        SELECT tag_index, block, lateness_draw >= ${delayedThreshold} AS is_copy
        FROM (
          SELECT tag_index, block, block_hash & 4294967295 AS lateness_draw,
            least(block // ${blocksPerHour} + 1 + CAST((block_hash >> 53) % ${maxDelay} AS BIGINT),
              ${lastHour}) AS arrival
          FROM (
            SELECT tag_index, block, hash(${seed}, tag_index, block, 1) AS block_hash
            FROM (
              SELECT i % ${tags} AS tag_index, ${firstLateBlock} + i // ${tags} AS block
              FROM range(${lateBlocks}) b(i)))
          WHERE block_hash & 4294967295 < ${lateThreshold})
        WHERE arrival >= ${fromHour} AND arrival < ${toHour}
          AND ((lateness_draw < ${delayedThreshold} AND block < ${fromBlock})
            OR (lateness_draw >= ${delayedThreshold} AND arrival > block // ${blocksPerHour}))
      ),
      candidates AS (
        SELECT *, unnest(range(
            CAST(floor((${fromMs} - phase_ms - 0.3 * period_ms) / period_ms) AS BIGINT) - 1,
            CAST(ceil((${toMs} - phase_ms + 0.3 * period_ms) / period_ms) AS BIGINT) + 1)) AS k,
          ${fromMs} AS low_ms, ${toMs} AS high_ms, false AS is_copy
        FROM signals
        UNION ALL
        SELECT signals.*, unnest(range(
            CAST(floor((block * ${blockMs} - phase_ms - 0.3 * period_ms) / period_ms) AS BIGINT) - 1,
            CAST(ceil(((block + 1) * ${blockMs} - phase_ms + 0.3 * period_ms) / period_ms) AS BIGINT)
              + 1)) AS k,
          block * ${blockMs} AS low_ms, (block + 1) * ${blockMs} AS high_ms, is_copy
        FROM late_blocks JOIN signals USING (tag_index)
      ),
      hashed AS (
        SELECT *, hash(${seed}, tag_index, k) AS sample_hash FROM candidates
      ),
      timed AS (
        SELECT *
        FROM (
          SELECT *, phase_ms + k * period_ms
              + CAST(floor(((sample_hash & 65535) / 65536.0 - 0.5) * 0.6 * period_ms) AS BIGINT)
              AS offset_ms
          FROM hashed)
        WHERE offset_ms >= low_ms AND offset_ms < high_ms
      ),
      placed AS (
        SELECT *,
          hash(${seed}, tag_index, offset_ms // ${blockMs}, 1) AS block_hash,
          hash(${seed}, machine_index, offset_ms // ${windowMs}, 2) AS downtime_hash
        FROM timed
      ),
      decided AS (
        SELECT *,
          CASE WHEN is_copy OR block_hash & 4294967295 < ${delayedThreshold}
            THEN least(offset_ms // ${hourMs} + 1 + CAST((block_hash >> 53) % ${maxDelay} AS BIGINT),
              ${lastHour})
            ELSE offset_ms // ${hourMs} END AS arrival,
          downtime_hash & 2097151 < ${downtimeThreshold} AS window_has_run,
          5 + CAST(((downtime_hash >> 21) & 2097151) * 116 // 2097152 AS BIGINT) AS run_minutes,
          CAST((downtime_hash >> 42) & 2097151 AS BIGINT) AS run_start_draw,
          CAST((block_hash >> 32) & 2097151 AS BIGINT) AS spike_draw
        FROM placed
      ),
      running AS (
        SELECT *
        FROM decided
        WHERE arrival >= ${fromHour} AND arrival < ${toHour}
          AND NOT (window_has_run
            AND offset_ms % ${windowMs}
              >= run_start_draw * (${windowMinutes} - run_minutes + 1) // 2097152 * 60000
            AND offset_ms % ${windowMs}
              < (run_start_draw * (${windowMinutes} - run_minutes + 1) // 2097152 + run_minutes)
                * 60000)
      ),
      valued AS (
        SELECT *,
          CASE WHEN spike_draw < ${spikeThreshold}
              AND offset_ms % ${blockMs} // 60000 = spike_draw % ${blockMinutes}
            THEN high + amplitude * (0.1 + 0.4 * ((sample_hash >> 16) & 65535) / 65536.0)
            ELSE base
              + amplitude * sin(2 * pi() * (offset_ms % 86400000) / 86400000.0 + cycle_phase)
              + drift_amplitude * sin(2 * pi() * offset_ms / 86400000.0 / drift_days + drift_phase)
              + noise_amplitude
                * (((sample_hash >> 16) & 65535) / 65536.0 + ((sample_hash >> 32) & 65535) / 65536.0
                  - 1)
            END AS signal
        FROM running
      )
      SELECT tag,
        make_timestamptz((${startMs} + offset_ms) * 1000) AS time,
        round(CASE WHEN is_copy AND (sample_hash >> 58) & 1 = 1
          THEN signal + amplitude * (0.05 + 0.1 * (sample_hash >> 59) / 32.0)
          ELSE signal END, 3) AS value,
        CAST(CASE WHEN (sample_hash >> 48) & 1023 < 2 THEN 0
          WHEN (sample_hash >> 48) & 1023 < 10 THEN 64
          ELSE 192 END AS INTEGER) AS quality${extraColumns}
      FROM valued""";

  private final Scale scale;
  private final long seed;
  private final int lastHour;

  /**
   * @param hours hours of data; readings due after the last hour arrive in the last hour
   */
  public PlantSql(Scale scale, long seed, int hours) {
    this.scale = scale;
    this.seed = seed;
    this.lastHour = hours - 1;
  }

  /** The rows of {@code iiot.tags}. */
  String tagsQuery() {
    return fill(
        "WITH ${plant} SELECT tag, line, machine, unit, low, high FROM plant ORDER BY tag_index",
        Map.of());
  }

  /** The readings arriving in hours {@code [fromHour, toHour)}: tag, time, value, quality. */
  public String readingsQuery(int fromHour, int toHour) {
    return readings(fromHour, toHour, "");
  }

  /** Like {@link #readingsQuery}, plus {@code _ingest_ts}: the end of the arrival hour. */
  String readingsWithIngestTimeQuery(int fromHour, int toHour) {
    return readings(
        fromHour,
        toHour,
        ",\n  make_timestamptz(("
            + START.toEpochMilli()
            + " + (arrival + 1) * "
            + HOUR_MS
            + ") * 1000) AS _ingest_ts");
  }

  private String readings(int fromHour, int toHour, String extraColumns) {
    long firstLateBlock = Math.max(0, fromHour - MAX_DELAY_HOURS) * BLOCKS_PER_HOUR;
    Map<String, String> values = new LinkedHashMap<>();
    values.put("fromHour", Integer.toString(fromHour));
    values.put("toHour", Integer.toString(toHour));
    values.put("fromBlock", Long.toString(fromHour * BLOCKS_PER_HOUR));
    values.put("firstLateBlock", Long.toString(firstLateBlock));
    values.put(
        "lateBlocks", Long.toString((toHour * BLOCKS_PER_HOUR - firstLateBlock) * scale.tags()));
    values.put("fromMs", Long.toString(fromHour * HOUR_MS));
    values.put("toMs", Long.toString(toHour * HOUR_MS));
    values.put("extraColumns", extraColumns);
    return fill(READINGS, values);
  }

  private String fill(String template, Map<String, String> values) {
    Map<String, String> all = new LinkedHashMap<>(values);
    all.put("tags", Integer.toString(scale.tags()));
    all.put("tagsPerMachine", Integer.toString(scale.tagsPerMachine()));
    all.put("machinesPerLine", Integer.toString(scale.machinesPerLine()));
    all.put("lastHour", Integer.toString(lastHour));
    all.put("maxDelay", Integer.toString(MAX_DELAY_HOURS));
    all.put("blocksPerHour", Long.toString(BLOCKS_PER_HOUR));
    all.put("blockMs", Long.toString(HOUR_MS / BLOCKS_PER_HOUR));
    all.put("blockMinutes", Long.toString(60 / BLOCKS_PER_HOUR));
    all.put("delayedThreshold", Long.toString(threshold(DELAYED_SHARE, 32)));
    all.put("lateThreshold", Long.toString(threshold(DELAYED_SHARE + RESENT_SHARE, 32)));
    all.put("spikeThreshold", Long.toString(threshold(SPIKE_SHARE * 60 / BLOCKS_PER_HOUR, 21)));
    all.put("downtimeThreshold", Long.toString(threshold(DOWNTIME_CHANCE, 21)));
    all.put("windowMinutes", Integer.toString(DOWNTIME_WINDOW_MINUTES));
    all.put("windowMs", Long.toString(DOWNTIME_WINDOW_MINUTES * 60_000L));
    all.put("hourMs", Long.toString(HOUR_MS));
    all.put("startMs", Long.toString(START.toEpochMilli()));
    String text = template.replace("${plant}", PLANT);
    for (int salt = 101; salt <= 109; salt++) {
      text = text.replace("${u" + salt + "}", uniform(salt));
    }
    for (Map.Entry<String, String> entry : all.entrySet()) {
      text = text.replace("${" + entry.getKey() + "}", entry.getValue());
    }
    return text.replace("${seed}", seedLiteral());
  }

  /** The value below which {@code bits} uniform random bits fall with probability {@code share}. */
  private static long threshold(double share, int bits) {
    return Math.round(share * (1L << bits));
  }

  /** A uniform draw in [0, 1) from {@code hash(seed, tag_index, salt)}. */
  private String uniform(int salt) {
    return "((hash(${seed}, tag_index, " + salt + ") >> 11) / 9007199254740992.0)";
  }

  private String seedLiteral() {
    return "CAST(" + seed + " AS BIGINT)";
  }
}

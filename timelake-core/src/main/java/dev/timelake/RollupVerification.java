package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a check of one rollup against its raw table found: its cells recomputed from raw data alone
 * (copies removed) at the raw snapshot the rollup records, compared with the rollup's stored rows
 * as readers see them.
 *
 * <p>A cell is one (grouping columns…, bucket) pair held by either side; it is a mismatch when only
 * one side holds it, or when a compared column differs (floating-point columns within a relative
 * 1e-9, 1e-6 for FLOAT; every other compared type exactly). Columns holding states whose stored
 * form depends on the order they were merged in (point lists, sketches, gap and time-weighted
 * states) are not compared and are named in {@link #columnsNotCompared()}.
 *
 * @param rollup the rollup checked
 * @param rawSnapshot the raw table's snapshot the rollup records, which raw data was read at
 * @param rollupSnapshot the rollup's snapshot whose rows were read
 * @param options the buckets asked for
 * @param bucketsChecked the buckets compared (holding a cell on either side)
 * @param bucketsTotal the buckets either side holds in the checked range, sampled or not
 * @param cellsChecked the cells compared
 * @param mismatches the cells that differ
 * @param examples up to {@link #MAX_EXAMPLES} mismatches, one readable line each, in bucket order
 * @param columnsNotCompared the stored columns left out of the comparison, in table order
 * @param uncheckedBefore when set, buckets before this instant were not checked: the raw table (or
 *     the rollup) no longer holds all of their rows (retention drops whole partitions)
 * @param took how long the check took
 */
public record RollupVerification(
    TableName rollup,
    long rawSnapshot,
    long rollupSnapshot,
    Options options,
    long bucketsChecked,
    long bucketsTotal,
    long cellsChecked,
    long mismatches,
    List<String> examples,
    List<String> columnsNotCompared,
    Optional<Instant> uncheckedBefore,
    Duration took) {

  /** The most mismatches a verification describes. */
  public static final int MAX_EXAMPLES = 10;

  public RollupVerification {
    requireNonNull(rollup, "rollup is null");
    requireNonNull(options, "options is null");
    examples = List.copyOf(examples);
    columnsNotCompared = List.copyOf(columnsNotCompared);
    requireNonNull(uncheckedBefore, "uncheckedBefore is null");
    requireNonNull(took, "took is null");
  }

  /** True when every checked cell of the rollup holds what raw data gives. */
  public boolean isExact() {
    return mismatches == 0;
  }

  /**
   * Which buckets to check: every one ({@link #allBuckets()}), or {@code buckets} distinct bucket
   * starts chosen at random among those either side holds ({@link #sample(int, long)}); the same
   * seed over the same data chooses the same buckets.
   */
  public record Options(OptionalInt sampleBuckets, long seed) {
    public Options {
      requireNonNull(sampleBuckets, "sampleBuckets is null");
      if (sampleBuckets.isPresent() && sampleBuckets.getAsInt() <= 0) {
        throw TimelakeException.validation(
            "Invalid rollup verification sample: %d buckets (expected at least 1)",
            sampleBuckets.getAsInt());
      }
    }

    /** Checks every bucket. */
    public static Options allBuckets() {
      return new Options(OptionalInt.empty(), 0);
    }

    /** Checks {@code buckets} buckets chosen with {@code seed}. */
    public static Options sample(int buckets, long seed) {
      return new Options(OptionalInt.of(buckets), seed);
    }

    /** True when only a sample of the buckets is checked. */
    public boolean samples() {
      return sampleBuckets.isPresent();
    }
  }
}

package dev.timelake;

import java.security.SecureRandom;
import java.util.Random;

/**
 * A {@link Random} for randomized tests whose seed is logged and replayable: run with {@code
 * -Dtests.seed=<hex>} to repeat a failure. Its {@code toString()} names the seed, so passing it to
 * AssertJ's {@code as(…)} puts the seed in every failure message.
 */
public final class TestRandom extends Random {
  private final long seed;

  private TestRandom(long seed) {
    super(seed);
    this.seed = seed;
  }

  /** A random source seeded from {@code tests.seed}, else from a fresh random seed. */
  public static TestRandom create() {
    TestRandom random = new TestRandom(configuredSeed());
    System.out.println("Random test data with " + random);
    return random;
  }

  /**
   * The seed of {@code tests.seed}, else a fresh one, for a test that derives several sources from
   * it (one per worker or case); {@link #describe} says how to replay it.
   */
  public static long seed() {
    long seed = configuredSeed();
    System.out.println("Random test data with " + describe(seed));
    return seed;
  }

  /** How to run a test again with {@code seed}: {@code -Dtests.seed=<hex>}. */
  public static String describe(long seed) {
    return "-Dtests.seed=" + Long.toHexString(seed);
  }

  private static long configuredSeed() {
    String configured = System.getProperty("tests.seed");
    return configured == null || configured.isBlank()
        ? new SecureRandom().nextLong()
        : Long.parseUnsignedLong(configured.trim(), 16);
  }

  /** A long in {@code [min, max)}. */
  public long between(long min, long max) {
    return min + Math.floorMod(nextLong(), max - min);
  }

  @Override
  public String toString() {
    return describe(seed);
  }
}

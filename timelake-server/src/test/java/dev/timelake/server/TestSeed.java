package dev.timelake.server;

import java.util.Random;

/** The seed of a randomized test: {@code -Dtests.seed=<hex>} replays a run, else a new one. */
final class TestSeed {
  private TestSeed() {}

  static long seed() {
    String given = System.getProperty("tests.seed");
    return given == null ? new Random().nextLong() : Long.parseUnsignedLong(given, 16);
  }
}

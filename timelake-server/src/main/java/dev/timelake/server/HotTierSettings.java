package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a server's hot tier holds acknowledged writes before committing them: a table's rows are
 * committed once it holds {@code maxRows} of them or its oldest is {@code maxAge} old; past {@code
 * maxBytes} of log, or twice {@code maxRows} rows held in all (their points are in memory), the
 * tier takes no more writes until a flush frees some (the writer waits a little, then is answered
 * 503 to send again).
 */
public record HotTierSettings(long maxRows, Duration maxAge, long maxBytes) {
  /** One million rows, two seconds, 256 MiB of log. */
  public static final HotTierSettings DEFAULT =
      new HotTierSettings(1_000_000, Duration.ofSeconds(2), 256L << 20);

  public HotTierSettings {
    requireNonNull(maxAge, "maxAge is null");
    if (maxRows < 1) {
      throw new IllegalArgumentException("hot-tier-max-rows must be at least 1, not " + maxRows);
    }
    if (maxAge.isNegative() || maxAge.isZero()) {
      throw new IllegalArgumentException("hot-tier-max-age must be positive, not " + maxAge);
    }
    if (maxBytes < 1 << 20) {
      throw new IllegalArgumentException(
          "hot-tier-max-bytes must be at least 1 MiB (1048576), not " + maxBytes);
    }
  }
}

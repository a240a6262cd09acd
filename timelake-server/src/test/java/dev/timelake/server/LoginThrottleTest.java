package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-12-01T00:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private final TestClock clock = new TestClock();
  private final LoginThrottle throttle = new LoginThrottle(clock);

  @Test
  void blocksAnAddressAfterTenFailuresUntilAMinuteAfterTheLast() throws Exception {
    InetAddress guesser = InetAddress.getByName("192.0.2.7");
    InetAddress other = InetAddress.getByName("192.0.2.8");
    for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK - 1; i++) {
      throttle.failed(guesser);
      clock.now = clock.now.plusSeconds(5);
    }
    assertThat(throttle.blocked(guesser)).isEmpty();
    throttle.failed(guesser);
    assertThat(throttle.blocked(guesser)).contains(Duration.ofSeconds(60));
    assertThat(throttle.blocked(other)).isEmpty();
    clock.now = clock.now.plusSeconds(59);
    assertThat(throttle.blocked(guesser)).contains(Duration.ofSeconds(1));
    assertThat(LoginThrottle.refusal(guesser, Duration.ofMillis(200)))
        .isEqualTo("Too many failed logins from 192.0.2.7: try again in 1 s");
    clock.now = clock.now.plusSeconds(1);
    assertThat(throttle.blocked(guesser)).isEmpty();
  }

  @Test
  void failuresFarApartNeverBlockAndASuccessForgetsThem() throws Exception {
    InetAddress user = InetAddress.getByName("192.0.2.9");
    for (int i = 0; i < 3 * LoginThrottle.FAILURES_BEFORE_BLOCK; i++) {
      throttle.failed(user);
      clock.now = clock.now.plus(LoginThrottle.BLOCK).plusSeconds(1);
    }
    assertThat(throttle.blocked(user)).isEmpty();
    for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK - 1; i++) {
      throttle.failed(user);
    }
    throttle.succeeded(user);
    throttle.failed(user);
    assertThat(throttle.blocked(user)).isEmpty();
  }
}

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
  void blocksAUserOfAnAddressAfterTenFailuresUntilAMinuteAfterTheLast() throws Exception {
    InetAddress guesser = InetAddress.getByName("192.0.2.7");
    InetAddress other = InetAddress.getByName("192.0.2.8");
    for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK; i++) {
      assertThat(throttle.reserve(guesser, "tl")).isEmpty();
      clock.now = clock.now.plusSeconds(5);
    }
    clock.now = clock.now.minusSeconds(5);

    assertThat(throttle.reserve(guesser, "tl")).contains(Duration.ofSeconds(60));
    assertThat(throttle.reserve(other, "tl")).isEmpty();
    clock.now = clock.now.plusSeconds(59);
    assertThat(throttle.reserve(guesser, "tl")).contains(Duration.ofSeconds(1));
    clock.now = clock.now.plusSeconds(1);
    assertThat(throttle.reserve(guesser, "tl")).isEmpty();
  }

  @Test
  void failuresFarApartNeverBlockAndASuccessForgetsThem() throws Exception {
    InetAddress user = InetAddress.getByName("192.0.2.9");
    for (int i = 0; i < 3 * LoginThrottle.FAILURES_BEFORE_BLOCK; i++) {
      assertThat(throttle.reserve(user, "tl")).isEmpty();
      clock.now = clock.now.plus(LoginThrottle.BLOCK).plusSeconds(1);
    }
    for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK - 1; i++) {
      throttle.reserve(user, "tl");
    }
    throttle.succeeded(user, "tl");
    assertThat(throttle.reserve(user, "tl")).isEmpty();
    assertThat(throttle.reserve(user, "tl")).isEmpty();
  }

  @Test
  void oneUsersGuessesDoNotLockOutAnotherUserOfTheSameAddress() throws Exception {
    InetAddress local = InetAddress.getByName("127.0.0.1");
    for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK; i++) {
      assertThat(throttle.reserve(local, "alice")).isEmpty();
    }

    assertThat(throttle.reserve(local, "alice")).contains(Duration.ofSeconds(60));
    assertThat(throttle.reserve(local, "grafana")).isEmpty();
    throttle.succeeded(local, "grafana");
    assertThat(LoginThrottle.refusal(local, "alice", Duration.ofSeconds(60)))
        .isEqualTo(
            "Too many failed logins of user \"alice\" from 127.0.0.1 (or on this server): try"
                + " again in 60 s");
  }

  @Test
  void failuresOfEveryAddressAndUserTogetherHaveACeiling() throws Exception {
    int users = 0;
    while (throttle.reserve(InetAddress.getByName("192.0.2.1"), "user" + users).isEmpty()) {
      users++;
    }

    assertThat(users).isEqualTo(LoginThrottle.FAILURES_PER_MINUTE);
    assertThat(throttle.reserve(InetAddress.getByName("192.0.2.2"), "someone")).isPresent();
    clock.now = clock.now.plus(LoginThrottle.BLOCK);
    assertThat(throttle.reserve(InetAddress.getByName("192.0.2.2"), "someone")).isEmpty();
  }

  @Test
  void concurrentAttemptsGetNoMorePasswordChecksThanTheLimit() throws Exception {
    InetAddress guesser = InetAddress.getByName("192.0.2.3");
    java.util.concurrent.atomic.AtomicInteger checks =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    java.util.List<Thread> threads = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                if (throttle.reserve(guesser, "tl").isEmpty()) {
                  checks.incrementAndGet();
                }
              });
      thread.start();
      threads.add(thread);
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(checks.get()).isEqualTo(LoginThrottle.FAILURES_BEFORE_BLOCK);
  }
}

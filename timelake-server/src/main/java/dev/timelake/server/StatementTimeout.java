package dev.timelake.server;

import dev.timelake.QueryFailedException;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** The server's statement timeout: a client's statement is cancelled when it runs longer. */
record StatementTimeout(Duration limit, ScheduledExecutorService timer) {
  /** No limit. */
  static StatementTimeout none(ScheduledExecutorService timer) {
    return new StatementTimeout(Duration.ZERO, timer);
  }

  /** Runs {@code sql} in {@code session}, cancelled when it outlasts the limit. */
  QueryResult run(Session session, String sql) {
    if (limit.isZero()) {
      return session.sql(sql);
    }
    AtomicBoolean expired = new AtomicBoolean();
    ScheduledFuture<?> alarm =
        timer.schedule(
            () -> {
              expired.set(true);
              session.cancel();
            },
            limit.toMillis(),
            TimeUnit.MILLISECONDS);
    try {
      return session.sql(sql);
    } catch (TimelakeException e) {
      if (expired.get()) {
        throw new QueryFailedException(
            "INTERRUPT Error: the statement ran longer than this server's statement timeout of "
                + limit.toMillis()
                + " ms and was cancelled",
            e);
      }
      throw e;
    } finally {
      alarm.cancel(false);
    }
  }
}

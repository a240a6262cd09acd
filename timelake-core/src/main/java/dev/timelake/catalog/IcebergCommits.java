package dev.timelake.catalog;

import static java.util.Objects.requireNonNull;

import dev.timelake.CommitFailedException;
import dev.timelake.CommitStateUnknownException;
import dev.timelake.ConflictException;
import dev.timelake.TimelakeException;
import java.util.function.Supplier;

/**
 * The one mapping of an Iceberg commit's failures to Timelake's exceptions, for appends, deletes,
 * maintenance, optimize, refresh and the catalog's own changes:
 *
 * <ul>
 *   <li>the outcome is unknown (Iceberg's {@code CommitStateUnknownException}): a {@link
 *       CommitStateUnknownException}, and nothing is cleaned up, since what was written may be
 *       live;
 *   <li>a concurrent commit won every retry ({@code CommitFailedException}) or changed what the
 *       commit was validated against ({@code ValidationException}): a {@link ConflictException},
 *       after the clean-up;
 *   <li>one of Timelake's own checks failed (a {@link TimelakeException}): passed on, after the
 *       clean-up;
 *   <li>anything else: a {@link CommitFailedException}, after the clean-up.
 * </ul>
 *
 * Every message names the operation and the table, says what state the table is in and what to do.
 */
public final class IcebergCommits {
  private IcebergCommits() {}

  /**
   * What is committed, for the messages: {@code what} as a noun phrase ("append to iot.readings",
   * "refresh of rollup iot.readings_1h"), {@code subject} the thing left unchanged on a failure
   * ("table", "rollup") and {@code retry} what the user does next ("retry the append").
   */
  public record Operation(String what, String subject, String retry) {
    public Operation {
      requireNonNull(what, "what is null");
      requireNonNull(subject, "subject is null");
      requireNonNull(retry, "retry is null");
    }

    /** An operation on a table. */
    public static Operation onTable(String what, String retry) {
      return new Operation(what, "table", retry);
    }
  }

  /** Runs {@code commit}, mapping its failures; nothing to clean up on a definite failure. */
  public static void commit(Operation operation, Runnable commit) {
    commit(operation, commit, () -> {});
  }

  /**
   * Runs {@code commit}, mapping its failures; {@code cleanUp} runs after a definite failure (the
   * files written for the commit deleted, say), never after an unknown outcome. A failure of the
   * clean-up itself is attached to the thrown exception.
   */
  public static void commit(Operation operation, Runnable commit, Runnable cleanUp) {
    commit(
        operation,
        () -> {
          commit.run();
          return null;
        },
        cleanUp);
  }

  /** Runs {@code commit} and returns what it returns, mapping its failures as above. */
  public static <T> T commit(Operation operation, Supplier<T> commit, Runnable cleanUp) {
    try {
      return commit.get();
    } catch (org.apache.iceberg.exceptions.CommitStateUnknownException e) {
      throw new CommitStateUnknownException(
          capitalized(operation.what())
              + " may or may not have committed; what it wrote was kept. Check the "
              + operation.subject()
              + "'s snapshots before you "
              + operation.retry()
              + ": "
              + e.getMessage(),
          e);
    } catch (org.apache.iceberg.exceptions.CommitFailedException
        | org.apache.iceberg.exceptions.ValidationException e) {
      throw cleanedUp(
          new ConflictException(
              "Cannot commit "
                  + operation.what()
                  + ": a concurrent commit changed the "
                  + operation.subject()
                  + " first ("
                  + e.getMessage()
                  + "); the "
                  + operation.subject()
                  + " is unchanged, "
                  + operation.retry(),
              e),
          cleanUp);
    } catch (TimelakeException e) {
      throw cleanedUp(e, cleanUp);
    } catch (RuntimeException e) {
      throw cleanedUp(
          new CommitFailedException(
              "Cannot commit "
                  + operation.what()
                  + ": "
                  + e.getMessage()
                  + "; the "
                  + operation.subject()
                  + " is unchanged, "
                  + operation.retry(),
              e),
          cleanUp);
    }
  }

  private static TimelakeException cleanedUp(TimelakeException failure, Runnable cleanUp) {
    try {
      cleanUp.run();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
    return failure;
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}

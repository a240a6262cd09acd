package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What a PostgreSQL connection sends waits for its hot tier's force: the hook runs before each
 * send, and when it fails the buffered answers are dropped and the client is told, FATAL, that the
 * outcome of its writes since its last answer is unknown.
 */
class PgWriterBeforeSendingTest {
  @Test
  void theHookRunsBeforeEachSend() throws IOException {
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    PgMessages.Writer out = new PgMessages.Writer(sent);
    AtomicInteger runs = new AtomicInteger();
    out.beforeSending(
        () -> {
          assertThat(sent.size()).as("nothing sent before the hook").isZero();
          runs.incrementAndGet();
        });
    out.begin('C').string("INSERT 0 1").end();
    out.flush();
    assertThat(runs).hasValue(1);
    assertThat(sent.toString(StandardCharsets.UTF_8)).contains("INSERT 0 1");
  }

  @Test
  void aFailingHookDropsTheAnswersAndEndsTheConnectionWithAFatalError() {
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    PgMessages.Writer out = new PgMessages.Writer(sent);
    out.beforeSending(
        () -> {
          throw new IOException("No space left on device");
        });
    out.begin('C').string("INSERT 0 1").end();
    assertThatThrownBy(out::flush).hasMessageContaining("No space left on device");
    String answer = sent.toString(StandardCharsets.UTF_8);
    assertThat(answer).doesNotContain("INSERT 0 1");
    assertThat(answer)
        .contains("FATAL")
        .contains("58030")
        .contains("No space left on device")
        .contains("outcome of this connection's INSERTs since its last answer is unknown");
  }
}

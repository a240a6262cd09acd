package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hot tier on a full disk: its log's folder is a 256 KiB tmpfs (mounted for the test, so it
 * runs where the test may mount one: as root on Linux; skipped elsewhere). Once the log cannot take
 * a request, it is answered 503 (send it again) and nothing of it is held; every request answered
 * before is committed, each once.
 */
class HotTierFullDiskTest extends WithLineProtocolServer {
  private Path mounted;
  private LineProtocolServer tiered;

  @BeforeEach
  void mountATinyDisk() throws Exception {
    Path folder = HotTier.folder(lake);
    Files.createDirectories(folder);
    Process mount =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", folder.toString())
            .redirectErrorStream(true)
            .start();
    boolean done = mount.waitFor(20, java.util.concurrent.TimeUnit.SECONDS);
    Assumptions.assumeTrue(
        done && mount.exitValue() == 0, "a tmpfs can be mounted here (root on Linux)");
    mounted = folder;
  }

  @AfterEach
  void unmount() throws Exception {
    if (tiered != null) {
      tiered.close();
    }
    if (mounted != null) {
      new ProcessBuilder("umount", mounted.toString()).start().waitFor();
    }
  }

  @Test
  void aFullLogAnswers503AndLosesNothingAnswered() throws Exception {
    tiered = tiered(lake, new HotTierSettings(1_000_000, Duration.ofHours(1), 64L << 20));
    int answered = 0;
    HttpResponse<String> refused = null;
    for (int request = 0; request < 200 && refused == null; request++) {
      HttpResponse<String> response = write(request);
      if (response.statusCode() == 204) {
        answered++;
      } else {
        refused = response;
      }
    }
    assertThat(refused).as("a request refused once the disk is full").isNotNull();
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
    assertThat(refused.body())
        .contains("cannot write its hot tier's log")
        .contains("send it again");
    assertThat(answered).isPositive();
    HotTier.of(lake).orElseThrow().flush(Duration.ofSeconds(60));
    assertThat(rows("SELECT count(*), count(DISTINCT tag) FROM iot.readings"))
        .containsExactly(java.util.List.of(answered * 100L, answered * 100L));
  }

  /** Request {@code n}: 100 lines of about 200 bytes, each a series of its own. */
  private HttpResponse<String> write(int n) throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int line = 0; line < 100; line++) {
      lines
          .append("readings,tag=r")
          .append(n)
          .append('-')
          .append(line)
          .append(",site=")
          .append("s".repeat(120))
          .append(" value=")
          .append(line)
          .append(" 1767225600\n");
    }
    return http.send(
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + tiered.port() + "/api/v2/write?bucket=iot&precision=s"))
            .header("Authorization", "Token " + PASSWORD)
            .POST(HttpRequest.BodyPublishers.ofString(lines.toString()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.timelake.TableName;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot tier's log read back after a crash: every record forced comes back as written; a record
 * cut short or damaged at the end is dropped; damage before sound records, or a length that runs
 * past the file, is refused without allocating what the length claims.
 */
class HotTierLogTest {
  @TempDir Path folder;

  private static HotTierRecord record(long sequence, int lines) {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      body.append("readings,tag=T")
          .append(i)
          .append(" value=")
          .append(i * 1.5)
          .append(",n=")
          .append(i)
          .append("i,u=18446744073709551615u,note=\"é \\\"x\\\"\",ok=")
          .append(i % 2 == 0)
          .append(' ')
          .append(1_767_225_600L + i)
          .append('\n');
    }
    return new HotTierRecord(
        sequence,
        new LineProtocolRequest(
            "iot",
            LineProtocol.Precision.SECONDS,
            1_767_225_600_000_000L,
            body.toString().getBytes(StandardCharsets.UTF_8)),
        List.of(new TableName("iot", "readings")),
        "digest-" + sequence,
        "alice",
        42L);
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.sorted().toList();
    }
  }

  private HotTierLog written(int records) throws IOException {
    HotTierLog log = HotTierLog.open(folder);
    for (int i = 1; i <= records; i++) {
      log.force(log.append(record(i, 3)));
    }
    return log;
  }

  @Test
  void recordsComeBackAsWritten() throws IOException {
    try (HotTierLog log = written(3)) {
      HotTierLog.Replay replay = HotTierLog.replay(folder);
      assertThat(replay.records()).hasSize(3);
      assertThat(replay.records().get(1).record()).isEqualTo(record(2, 3));
      assertThat(replay.records().get(1).record().request().points())
          .isEqualTo(record(2, 3).request().points())
          .hasSize(3);
      assertThat(replay.records().get(0).epoch()).isEqualTo(log.epoch());
      assertThat(replay.dropped()).isEmpty();
    }
  }

  @Test
  void aRecordCutShortAtTheEndIsDropped() throws IOException {
    written(2).close();
    Path segment = segments().get(0);
    long size = Files.size(segment);
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      channel.truncate(size - 5);
    }
    HotTierLog.Replay replay = HotTierLog.replay(folder);
    assertThat(replay.records()).extracting(r -> r.record().sequence()).containsExactly(1L);
    assertThat(replay.dropped()).singleElement().asString().contains("runs past the segment's end");
  }

  @Test
  void aDamagedLastRecordIsDropped() throws IOException {
    written(2).close();
    Path segment = segments().get(0);
    flipByte(segment, Files.size(segment) - 3);
    HotTierLog.Replay replay = HotTierLog.replay(folder);
    assertThat(replay.records()).hasSize(1);
    assertThat(replay.dropped()).singleElement().asString().contains("checksum");
  }

  @Test
  void damageBeforeSoundRecordsIsRefused() throws IOException {
    written(3).close();
    flipByte(segments().get(0), 20);
    assertThatThrownBy(() -> HotTierLog.replay(folder))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("at byte 0")
        .hasMessageContaining("sound records follow")
        .hasMessageContaining("Move the file away");
  }

  @Test
  void aLengthBeyondTheFileIsNotAllocated() throws IOException {
    written(1).close();
    Path segment = segments().get(0);
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.allocate(4).putInt(0, Integer.MAX_VALUE - 8), 4);
    }
    HotTierLog.Replay replay = HotTierLog.replay(folder);
    assertThat(replay.records()).isEmpty();
    assertThat(replay.dropped()).singleElement().asString().contains("(2147483639)");
  }

  @Test
  void aCountBeyondTheRecordIsRefusedBeforeAllocating() {
    ByteBuffer bytes = ByteBuffer.wrap(record(1, 1).encode());
    // The table count follows the sequence, format, precision, two times and the namespace.
    int countAt = 8 + 1 + 1 + 8 + 8 + (4 + 3);
    bytes.putInt(countAt, Integer.MAX_VALUE);
    assertThatThrownBy(() -> HotTierRecord.decode(bytes))
        .isInstanceOf(HotTierRecord.Malformed.class)
        .hasMessageContaining("a count of 2147483647");
  }

  @Test
  void releasedSegmentsAreDeletedAndTheOpenOneStays() throws IOException {
    try (HotTierLog log = HotTierLog.open(folder)) {
      long sequence = 0;
      // Records of ~1 MiB each roll the 64 MiB segment once.
      while (segments().size() < 2) {
        log.force(log.append(record(++sequence, 10_000)));
      }
      log.release(sequence); // every record but the last one committed
      assertThat(segments()).hasSize(1);
      assertThat(HotTierLog.replay(folder).records())
          .extracting(r -> r.record().sequence())
          .containsExactly(sequence);
    }
  }

  @Test
  void writersForcingWhileTheLogRollsAllFinish() throws Exception {
    try (HotTierLog log = HotTierLog.open(folder)) {
      Object sequencing = new Object();
      long[] sequence = {0};
      HotTierRecord big = record(1, 10_000);
      java.util.concurrent.ExecutorService writers =
          java.util.concurrent.Executors.newFixedThreadPool(4);
      List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (int w = 0; w < 4; w++) {
        done.add(
            writers.submit(
                () -> {
                  for (int i = 0; i < 40; i++) {
                    long position;
                    synchronized (sequencing) {
                      position =
                          log.append(
                              new HotTierRecord(
                                  ++sequence[0],
                                  big.request(),
                                  big.tables(),
                                  big.digest(),
                                  big.user(),
                                  big.ingestMicros()));
                    }
                    log.force(position);
                  }
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> writer : done) {
        writer.get(60, java.util.concurrent.TimeUnit.SECONDS); // a deadlock would hang here
      }
      writers.shutdown();
      assertThat(segments()).hasSizeGreaterThan(1);
      assertThat(HotTierLog.replay(folder).records()).hasSize(160);
    }
  }

  @Test
  void recordsOutOfOrderAreABug() throws IOException {
    try (HotTierLog log = HotTierLog.open(folder)) {
      assertThatThrownBy(() -> log.append(record(2, 1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("record 2 appended after 0");
    }
  }

  private static void flipByte(Path file, long position) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, position);
      one.put(0, (byte) (one.get(0) ^ 0x5a));
      channel.write(one.rewind(), position);
    }
  }
}

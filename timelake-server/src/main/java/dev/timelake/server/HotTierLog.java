package dev.timelake.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The hot tier's write-ahead log: records appended to segment files in a folder of the warehouse's
 * local work folder and forced to disk before a write is acknowledged. Each record is framed by a
 * magic number, its length and a CRC-32C of its bytes, so a record cut short by a crash (never
 * acknowledged: the force had not returned) is recognised and dropped when the log is read again.
 *
 * <p>One log has one epoch, a random id in its segments' names: the records of an epoch are
 * numbered from 1, and a flush names the epoch and the numbers it covers in its batch id, so after
 * a crash the records a table already committed are told apart from those it did not. Forcing is
 * shared: writers that append while a force runs are all covered by the next one (group fsync).
 */
final class HotTierLog implements AutoCloseable {
  /** A segment is closed and a new one begun past this size. */
  static final long SEGMENT_BYTES = 64L << 20;

  private static final int MAGIC = 0x544c4854; // "TLHT"
  private static final int FRAME_BYTES = 12;
  private static final String SUFFIX = ".wal";

  /** A record of more than this many bytes is refused when written and when read back. */
  static final int MAX_RECORD_BYTES = 1 << 30;

  private final Path folder;
  private final String epoch;

  /** Guards appends: the open segment, positions, segment list. */
  private final Object appending = new Object();

  /** Held by the one thread forcing the log; the others wait for it and then look again. */
  private final Object forcing = new Object();

  private FileChannel channel;
  private int segmentNumber;
  private long segmentStart;

  /** Bytes appended since the log was opened, over all its segments. */
  private long written;

  /** Bytes known to be on disk. */
  private volatile long forced;

  /** How many times the log was forced to disk: what group forcing saves shows here. */
  private final java.util.concurrent.atomic.AtomicLong forces =
      new java.util.concurrent.atomic.AtomicLong();

  /** Set when an append failed and could not be undone: nothing more is appended. */
  private String broken;

  /** Set when the log is closed. */
  private boolean closedLog;

  /** Segments closed, oldest first: their path and the last record number each holds. */
  private final Deque<Segment> closed = new ArrayDeque<>();

  private long lastSequence;

  private record Segment(Path path, long lastSequence) {}

  private HotTierLog(Path folder, String epoch) {
    this.folder = folder;
    this.epoch = epoch;
  }

  /**
   * Opens a new log (a new epoch) in {@code folder}, which may hold segments of earlier logs: read
   * them with {@link #replay} and delete them with {@link #delete} first.
   */
  static HotTierLog open(Path folder) throws IOException {
    Files.createDirectories(folder);
    String epoch =
        String.format("%013d", System.currentTimeMillis())
            + "-"
            + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    HotTierLog log = new HotTierLog(folder, epoch);
    synchronized (log.appending) {
      log.openSegment();
    }
    return log;
  }

  /** This log's epoch, as flushes name it in their batch ids. */
  String epoch() {
    return epoch;
  }

  /**
   * Appends {@code record} (numbered by the caller, one more than the last); returns the position
   * to {@link #force} for it to be durable.
   *
   * @throws IOException when it cannot be written; the log is then as it was, or refuses every
   *     later append when it cannot be put back
   */
  long append(HotTierRecord record) throws IOException {
    byte[] payload = record.encode();
    if (payload.length > MAX_RECORD_BYTES) {
      throw new IOException(
          "one request is "
              + payload.length
              + " bytes, more than the hot tier's log takes: "
              + MAX_RECORD_BYTES);
    }
    CRC32C crc = new CRC32C();
    crc.update(payload);
    ByteBuffer[] frame = {
      ByteBuffer.allocate(FRAME_BYTES)
          .putInt(MAGIC)
          .putInt(payload.length)
          .putInt((int) crc.getValue())
          .flip(),
      ByteBuffer.wrap(payload)
    };
    long length = FRAME_BYTES + (long) payload.length;
    synchronized (appending) {
      if (broken != null) {
        throw new IOException(broken);
      }
      if (record.sequence() != lastSequence + 1) {
        throw new IllegalStateException(
            "record " + record.sequence() + " appended after " + lastSequence);
      }
      if (written - segmentStart + length > SEGMENT_BYTES && written > segmentStart) {
        rollSegment();
      }
      long before = channel.position();
      try {
        while (frame[1].hasRemaining()) {
          channel.write(frame);
        }
      } catch (IOException e) {
        undo(before, e);
        throw e;
      }
      written += FRAME_BYTES + payload.length;
      lastSequence = record.sequence();
      return written;
    }
  }

  /** Cuts a partly written frame off, so later records do not follow a torn one. */
  private void undo(long before, IOException failure) {
    try {
      channel.truncate(before);
      channel.position(before);
    } catch (IOException e) {
      broken =
          "The hot tier's log "
              + folder
              + " could not be written ("
              + failure.getMessage()
              + ") nor put back ("
              + e.getMessage()
              + "); restart the server";
    }
  }

  /** Returns once every byte up to {@code position} is on disk; one force serves many callers. */
  void force(long position) throws IOException {
    if (forced >= position) {
      return;
    }
    // Lock order: forcing, then appending (briefly); a roll holds appending and never forcing.
    synchronized (forcing) {
      while (forced < position) {
        FileChannel current;
        long target;
        synchronized (appending) {
          if (closedLog) {
            throw new IOException("The hot tier's log is closed");
          }
          current = channel;
          target = written;
        }
        try {
          current.force(false);
          forces.incrementAndGet();
          forced = target;
        } catch (java.nio.channels.ClosedChannelException e) {
          // A roll closed it, after forcing it: look again at the segment that follows.
        }
      }
    }
  }

  /** Closes the open segment, forced, and begins the next; under {@link #appending}. */
  private void rollSegment() throws IOException {
    channel.force(false);
    channel.close();
    closed.addLast(new Segment(segmentPath(segmentNumber), lastSequence));
    segmentNumber++;
    openSegment();
  }

  private void openSegment() throws IOException {
    channel =
        FileChannel.open(
            segmentPath(segmentNumber), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    segmentStart = written;
    // The new file's name must be on disk too, or a crash could lose the segment.
    forceFolder();
  }

  private void forceFolder() {
    try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ)) {
      directory.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Not every platform opens folders; the segment's own force still covers its bytes there.
    }
  }

  private Path segmentPath(int number) {
    return folder.resolve(epoch + "-" + String.format("%08d", number) + SUFFIX);
  }

  /** How many times the log has been forced to disk. */
  long forces() {
    return forces.get();
  }

  /** Deletes the closed segments whose records are all numbered below {@code firstUnflushed}. */
  void release(long firstUnflushed) {
    List<Path> done = new ArrayList<>();
    synchronized (appending) {
      while (!closed.isEmpty() && closed.peekFirst().lastSequence() < firstUnflushed) {
        done.add(closed.removeFirst().path());
      }
    }
    for (Path path : done) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        // Left for the next start: its records are committed, and replay skips them.
      }
    }
  }

  /** The bytes of segments not yet released, the open one included. */
  long bytesHeld() {
    synchronized (appending) {
      long held = written - segmentStart;
      for (Segment segment : closed) {
        try {
          held += Files.size(segment.path());
        } catch (IOException e) {
          // deleted meanwhile
        }
      }
      return held;
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (appending) {
      if (closedLog) {
        return;
      }
      closedLog = true;
      channel.force(false);
      channel.close();
    }
  }

  /** Closes the log and deletes its segments: every record in it is committed. */
  void closeAndDelete() throws IOException {
    close();
    synchronized (appending) {
      for (Segment segment : closed) {
        Files.deleteIfExists(segment.path());
      }
      closed.clear();
      Files.deleteIfExists(segmentPath(segmentNumber));
    }
  }

  /** A record read back, with the epoch of the log that wrote it. */
  record Replayed(String epoch, HotTierRecord record) {}

  /** What an earlier log left: its records in order, and what was dropped from its end. */
  record Replay(List<Replayed> records, List<Path> segments, List<String> dropped) {}

  /**
   * Reads the segments earlier logs left in {@code folder}, oldest first. A record cut short or
   * damaged at the end of a segment was never acknowledged and is dropped (and reported); one
   * followed by sound records means the disk lost acknowledged data, and is refused.
   *
   * @throws IOException when a segment cannot be read or is damaged before its end
   */
  static Replay replay(Path folder) throws IOException {
    List<Path> segments = new ArrayList<>();
    if (Files.isDirectory(folder)) {
      try (Stream<Path> files = Files.list(folder)) {
        files
            .filter(path -> path.getFileName().toString().endsWith(SUFFIX))
            .sorted()
            .forEach(segments::add);
      }
    }
    List<Replayed> records = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (Path segment : segments) {
      String name = segment.getFileName().toString();
      String epoch = name.substring(0, Math.max(0, name.lastIndexOf('-')));
      readSegment(segment, epoch, records, dropped);
    }
    return new Replay(records, segments, dropped);
  }

  private static void readSegment(
      Path segment, String epoch, List<Replayed> records, List<String> dropped) throws IOException {
    try (FileChannel in = FileChannel.open(segment, StandardOpenOption.READ)) {
      long size = in.size();
      long position = 0;
      while (position < size) {
        Frame frame = frameAt(in, position, size);
        if (frame.payload() == null) {
          if (soundFrameAfter(in, position + 1, size)) {
            throw new IOException(
                segment
                    + " at byte "
                    + position
                    + ": "
                    + frame.problem()
                    + ", and sound records"
                    + " follow; the disk lost data the log had forced. Move the file away to"
                    + " start without it (its records are lost).");
          }
          dropped.add(segment.getFileName() + " at byte " + position + ": " + frame.problem());
          return;
        }
        try {
          records.add(new Replayed(epoch, HotTierRecord.decode(frame.payload())));
        } catch (HotTierRecord.Malformed e) {
          throw new IOException(
              segment
                  + " at byte "
                  + position
                  + ": a record with a sound checksum does not"
                  + " decode ("
                  + e.getMessage()
                  + "); was it written by a newer Timelake?");
        }
        position += FRAME_BYTES + frame.payload().limit();
      }
    }
  }

  /** A frame read at a position: its payload when sound, else what is wrong there. */
  private record Frame(ByteBuffer payload, String problem) {}

  private static Frame frameAt(FileChannel in, long position, long size) throws IOException {
    if (size - position < FRAME_BYTES) {
      return new Frame(null, "a record's frame is cut short");
    }
    ByteBuffer frame = ByteBuffer.allocate(FRAME_BYTES);
    in.read(frame, position);
    frame.flip();
    int magic = frame.getInt();
    int length = frame.getInt();
    int crc = frame.getInt();
    if (magic != MAGIC) {
      return new Frame(null, "no record starts here");
    }
    // Checked before anything is allocated for it.
    if (length < 0 || length > MAX_RECORD_BYTES || length > size - position - FRAME_BYTES) {
      return new Frame(null, "a record's length (" + length + ") runs past the segment's end");
    }
    ByteBuffer payload = ByteBuffer.allocate(length);
    while (payload.hasRemaining()) {
      if (in.read(payload, position + FRAME_BYTES + payload.position()) < 0) {
        return new Frame(null, "a record is cut short");
      }
    }
    payload.flip();
    CRC32C check = new CRC32C();
    check.update(payload.duplicate());
    return (int) check.getValue() == crc
        ? new Frame(payload, null)
        : new Frame(null, "a record's checksum does not match its bytes");
  }

  /** Whether a sound frame starts anywhere in the segment after {@code from}. */
  private static boolean soundFrameAfter(FileChannel in, long from, long size) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    long position = from;
    while (position < size) {
      buffer.clear();
      int read = in.read(buffer, position);
      if (read <= 0) {
        return false;
      }
      for (int i = 0; i + 4 <= read; i++) {
        if (buffer.getInt(i) == MAGIC && frameAt(in, position + i, size).payload() != null) {
          return true;
        }
      }
      position += Math.max(1, read - 3);
    }
    return false;
  }

  /** Deletes segments an earlier log left, once their records are committed. */
  static void delete(List<Path> segments) throws IOException {
    for (Path segment : segments) {
      Files.deleteIfExists(segment);
    }
  }
}

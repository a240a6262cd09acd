package dev.timelake.server;

import dev.timelake.TableName;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One acknowledged request held by the hot tier, as the log keeps it: its place in the log ({@code
 * sequence}), the request as received (parsed again, it gives the same points), the tables of its
 * points the tier holds (others were committed at once), the request's digest (a resend of it is
 * not written twice), who wrote it and when it was acknowledged (its rows' insertion time, so the
 * newest write of a key still wins after the flush).
 */
record HotTierRecord(
    long sequence,
    LineProtocolRequest request,
    List<TableName> tables,
    String digest,
    String user,
    long ingestMicros) {

  HotTierRecord {
    tables = List.copyOf(tables);
  }

  /** A record that does not decode: the log holds something this version did not write. */
  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message);
    }
  }

  /** The record's bytes in the log (without the frame around them). */
  byte[] encode() {
    List<byte[]> texts = new ArrayList<>();
    texts.add(utf8(request.namespace()));
    for (TableName table : tables) {
      texts.add(utf8(table.name()));
    }
    texts.add(utf8(digest));
    texts.add(utf8(user));
    int size = 8 + 1 + 1 + 8 + 8 + 4 + 4 + request.body().length;
    for (byte[] text : texts) {
      size += 4 + text.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.putLong(sequence);
    out.put((byte) request.format().ordinal());
    out.put((byte) request.precision().ordinal());
    out.putLong(request.receivedMicros());
    out.putLong(ingestMicros);
    blob(out, texts.get(0));
    out.putInt(tables.size());
    for (int i = 0; i < tables.size(); i++) {
      blob(out, texts.get(1 + i));
    }
    blob(out, texts.get(1 + tables.size()));
    blob(out, texts.get(2 + tables.size()));
    blob(out, request.body());
    return out.array();
  }

  /**
   * Decodes a record's bytes. Every count and length is checked against the bytes left before
   * anything is allocated for it, so a damaged record is refused rather than exhausting memory.
   */
  static HotTierRecord decode(ByteBuffer in) throws Malformed {
    try {
      long sequence = in.getLong();
      int format = in.get();
      LineProtocolRequest.Format[] formats = LineProtocolRequest.Format.values();
      if (format < 0 || format >= formats.length) {
        throw new Malformed("unknown format " + format);
      }
      int precision = in.get();
      LineProtocol.Precision[] precisions = LineProtocol.Precision.values();
      if (precision < 0 || precision >= precisions.length) {
        throw new Malformed("unknown precision " + precision);
      }
      long receivedMicros = in.getLong();
      long ingestMicros = in.getLong();
      String namespace = text(in);
      int count = count(in, 5);
      List<TableName> tables = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        tables.add(new TableName(namespace, text(in)));
      }
      String digest = text(in);
      String user = text(in);
      byte[] body = blob(in);
      if (in.hasRemaining()) {
        throw new Malformed(in.remaining() + " bytes after the body");
      }
      return new HotTierRecord(
          sequence,
          new LineProtocolRequest(
              namespace, formats[format], precisions[precision], receivedMicros, body),
          tables,
          digest,
          user,
          ingestMicros);
    } catch (BufferUnderflowException e) {
      throw new Malformed("the record ends early");
    } catch (RuntimeException e) {
      throw new Malformed("the record names an invalid table: " + e.getMessage());
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof HotTierRecord that
        && sequence == that.sequence
        && ingestMicros == that.ingestMicros
        && tables.equals(that.tables)
        && digest.equals(that.digest)
        && user.equals(that.user)
        && request.namespace().equals(that.request.namespace())
        && request.format() == that.request.format()
        && request.precision() == that.request.precision()
        && request.receivedMicros() == that.request.receivedMicros()
        && Arrays.equals(request.body(), that.request.body());
  }

  @Override
  public int hashCode() {
    return Long.hashCode(sequence);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void blob(ByteBuffer out, byte[] value) {
    out.putInt(value.length);
    out.put(value);
  }

  private static String text(ByteBuffer in) throws Malformed {
    return new String(blob(in), StandardCharsets.UTF_8);
  }

  private static byte[] blob(ByteBuffer in) throws Malformed {
    int length = count(in, 1);
    byte[] bytes = new byte[length];
    in.get(bytes);
    return bytes;
  }

  /**
   * A count of items of at least {@code minBytes} each, which the bytes left must be able to hold.
   */
  private static int count(ByteBuffer in, int minBytes) throws Malformed {
    int count = in.getInt();
    if (count < 0 || (long) count * minBytes > in.remaining()) {
      throw new Malformed(
          "a count of " + count + " where " + in.remaining() + " bytes are left in the record");
    }
    return count;
  }
}

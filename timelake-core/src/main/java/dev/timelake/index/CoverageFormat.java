package dev.timelake.index;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The bytes of a coverage, as the seeds' system writes them (docs/SPEC.md, ordered index): for a
 * table without entity columns the 64-bit Roaring portable format (a little-endian u64 bucket
 * count, then per bucket a little-endian u32 high key and a 32-bit portable bitmap); for a table
 * with entity columns {@code TSTECOV2}: the 8 ASCII bytes, a big-endian u32 identity count, and per
 * identity in identity order a u32 component count, each component as a u8 tag (1 string with u64
 * byte length, 2 int32, 3 int64, 4 uint64, all big-endian) and a u64 length followed by the
 * portable bitmap.
 */
public final class CoverageFormat {
  private static final byte[] MAGIC = "TSTECOV2".getBytes(StandardCharsets.US_ASCII);

  private CoverageFormat() {}

  /** The bytes of {@code coverage}; {@code entities} says whether the table has entity columns. */
  public static byte[] encode(Coverage coverage, boolean entities) {
    try {
      if (!entities) {
        return portable(coverage.ids(EntityIdentity.IMPLICIT));
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.write(MAGIC);
      Map<EntityIdentity, IntervalIds> identities = coverage.byIdentity();
      out.writeInt(identities.size());
      for (Map.Entry<EntityIdentity, IntervalIds> entry : identities.entrySet()) {
        List<Object> values = entry.getKey().values();
        out.writeInt(values.size());
        for (Object value : values) {
          out.writeByte(EntityIdentity.tag(value));
          if (value instanceof String text) {
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            out.writeLong(utf8.length);
            out.write(utf8);
          } else if (value instanceof Integer number) {
            out.writeInt(number);
          } else if (value instanceof java.math.BigInteger unsigned) {
            out.writeLong(unsigned.longValue());
          } else {
            out.writeLong((Long) value);
          }
        }
        byte[] nested = portable(entry.getValue());
        out.writeLong(nested.length);
        out.write(nested);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads bytes written by {@link #encode}.
   *
   * @throws IllegalArgumentException when they are truncated, have trailing bytes, unknown tags, or
   *     identities out of order or repeated
   */
  public static Coverage decode(byte[] bytes, boolean entities) {
    Coverage coverage = new Coverage();
    try {
      if (!entities) {
        IntervalIds ids = readPortable(bytes);
        merge(coverage, EntityIdentity.IMPLICIT, ids);
        return coverage;
      }
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      byte[] magic = in.readNBytes(MAGIC.length);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new IllegalArgumentException("not a TSTECOV2 coverage");
      }
      long count = Integer.toUnsignedLong(in.readInt());
      EntityIdentity previous = null;
      for (long i = 0; i < count; i++) {
        int components = in.readInt();
        if (components < 0 || components > in.available()) {
          throw new IllegalArgumentException("identity " + i + " has a bad component count");
        }
        List<Object> values = new ArrayList<>();
        for (int c = 0; c < components; c++) {
          int tag = in.readUnsignedByte();
          switch (tag) {
            case 1 -> values.add(new String(readBytes(in, in.readLong()), StandardCharsets.UTF_8));
            case 2 -> values.add(in.readInt());
            case 3 -> values.add(in.readLong());
            case 4 -> values.add(new java.math.BigInteger(Long.toUnsignedString(in.readLong())));
            default -> throw new IllegalArgumentException("unknown component tag " + tag);
          }
        }
        EntityIdentity identity = new EntityIdentity(values);
        if (previous != null && previous.compareTo(identity) >= 0) {
          throw new IllegalArgumentException("identities are not in order or repeat");
        }
        previous = identity;
        merge(coverage, identity, readPortable(readBytes(in, in.readLong())));
      }
      if (in.available() > 0) {
        throw new IllegalArgumentException(in.available() + " trailing bytes");
      }
      return coverage;
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated coverage: " + e.getMessage(), e);
    }
  }

  private static void merge(Coverage coverage, EntityIdentity identity, IntervalIds ids) {
    if (!ids.isEmpty()) {
      coverage.addIds(identity, ids);
    }
  }

  private static byte[] readBytes(DataInputStream in, long length) throws IOException {
    if (length < 0 || length > in.available()) {
      throw new IllegalArgumentException("a length of " + length + " runs past the end");
    }
    return in.readNBytes((int) length);
  }

  private static byte[] portable(IntervalIds ids) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    ids.serialize(out);
    out.flush();
    return bytes.toByteArray();
  }

  private static IntervalIds readPortable(byte[] bytes) throws IOException {
    ByteArrayInputStream input = new ByteArrayInputStream(bytes);
    IntervalIds ids = IntervalIds.deserialize(new DataInputStream(input));
    if (input.available() > 0) {
      throw new IllegalArgumentException(input.available() + " trailing bytes after a bitmap");
    }
    return ids;
  }
}

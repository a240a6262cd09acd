package dev.timelake.server;

import java.nio.charset.StandardCharsets;

/**
 * Reads Protocol Buffers' wire format from a byte array, field by field, for the few messages the
 * server takes (Prometheus remote write, OpenTelemetry metrics): every length is checked against
 * the bytes left before it is used, so malformed input is refused, never over-read or allocated
 * for.
 */
final class ProtobufReader {
  /** Input that is not a well-formed message. */
  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message);
    }
  }

  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int FIXED32 = 5;

  private final byte[] bytes;
  private int position;
  private final int limit;
  private int tag;

  ProtobufReader(byte[] bytes) {
    this(bytes, 0, bytes.length);
  }

  private ProtobufReader(byte[] bytes, int from, int limit) {
    this.bytes = bytes;
    this.position = from;
    this.limit = limit;
  }

  /** Whether bytes are left (in a packed repeated field's run). */
  boolean hasMore() {
    return position < limit;
  }

  /** Moves to the next field; false at the end of the message. */
  boolean next() throws Malformed {
    if (position >= limit) {
      return false;
    }
    long key = varint();
    if (key >>> 3 == 0 || key >>> 3 > Integer.MAX_VALUE) {
      throw new Malformed("field number " + (key >>> 3) + " at byte " + position);
    }
    tag = (int) key;
    return true;
  }

  /** The current field's number. */
  int field() {
    return tag >>> 3;
  }

  /** The current field's wire type. */
  int wireType() {
    return tag & 7;
  }

  long varint() throws Malformed {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position >= limit) {
        throw new Malformed("a varint runs past the end of its message");
      }
      byte b = bytes[position++];
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new Malformed("a varint longer than 10 bytes");
  }

  long fixed64() throws Malformed {
    require(8);
    long value = 0;
    for (int i = 7; i >= 0; i--) {
      value = (value << 8) | (bytes[position + i] & 0xffL);
    }
    position += 8;
    return value;
  }

  int fixed32() throws Malformed {
    require(4);
    int value = 0;
    for (int i = 3; i >= 0; i--) {
      value = (value << 8) | (bytes[position + i] & 0xff);
    }
    position += 4;
    return value;
  }

  double doubleValue() throws Malformed {
    return Double.longBitsToDouble(fixed64());
  }

  /** The current length-delimited field as a message of its own. */
  ProtobufReader message() throws Malformed {
    int length = length();
    ProtobufReader inner = new ProtobufReader(bytes, position, position + length);
    position += length;
    return inner;
  }

  /** The current length-delimited field as UTF-8 text. */
  String string() throws Malformed {
    int length = length();
    String text = new String(bytes, position, length, StandardCharsets.UTF_8);
    position += length;
    return text;
  }

  /** Skips the current field, whatever its type. */
  void skip() throws Malformed {
    switch (wireType()) {
      case VARINT -> varint();
      case FIXED64 -> {
        require(8);
        position += 8;
      }
      case LENGTH_DELIMITED -> {
        int length = length(); // moves past the length first: not "position += length()"
        position += length;
      }
      case FIXED32 -> {
        require(4);
        position += 4;
      }
      default -> throw new Malformed("wire type " + wireType() + " of field " + field());
    }
  }

  /** Fails unless the current field has wire type {@code expected}. */
  void expect(int expected) throws Malformed {
    if (wireType() != expected) {
      throw new Malformed(
          "field " + field() + " has wire type " + wireType() + ", expected " + expected);
    }
  }

  private int length() throws Malformed {
    expect(LENGTH_DELIMITED);
    long length = varint();
    if (length < 0 || length > limit - position) {
      throw new Malformed(
          "a length of " + length + " where " + (limit - position) + " bytes are left");
    }
    return (int) length;
  }

  private void require(int count) throws Malformed {
    if (limit - position < count) {
      throw new Malformed("a field runs past the end of its message");
    }
  }
}

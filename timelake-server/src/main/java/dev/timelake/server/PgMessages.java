package dev.timelake.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The PostgreSQL protocol's framing (version 3.0): messages read as a type byte and a length, and
 * messages written through one buffer that is flushed when the server waits for the client.
 */
final class PgMessages {
  /** The most a client message may hold; larger ones are refused as a protocol violation. */
  static final int MAX_MESSAGE = 64 << 20;

  /**
   * The most a startup packet or a message before login may hold (PostgreSQL's own limit is 10,000
   * bytes): a client that has not logged in must not make the server allocate much.
   */
  static final int MAX_BEFORE_LOGIN = 10_000;

  private PgMessages() {}

  /** One message from the client: its type (0 for the untyped startup packets) and its body. */
  record Message(char type, byte[] body) {}

  static Message readStartup(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 8 || length > MAX_BEFORE_LOGIN) {
      throw new IOException("invalid startup packet length " + length);
    }
    byte[] body = new byte[length - 4];
    in.readFully(body);
    return new Message((char) 0, body);
  }

  /** The next message, or null at the end of the stream. */
  static Message read(DataInputStream in) throws IOException {
    return read(in, MAX_MESSAGE);
  }

  /** The next message of at most {@code limit} bytes, or null at the end of the stream. */
  static Message read(DataInputStream in, int limit) throws IOException {
    int type = in.read();
    if (type < 0) {
      return null;
    }
    int length;
    try {
      length = in.readInt();
    } catch (EOFException e) {
      return null;
    }
    if (length < 4 || length > limit) {
      throw new IOException("invalid length " + length + " of message '" + (char) type + "'");
    }
    byte[] body = new byte[length - 4];
    in.readFully(body);
    return new Message((char) type, body);
  }

  /** Reads the fields of a message body in order. */
  static final class Reader {
    private final byte[] body;
    private int position;

    Reader(byte[] body) {
      this.body = body;
    }

    int int32() {
      require(4, "a 4-byte integer");
      int value =
          ((body[position] & 0xff) << 24)
              | ((body[position + 1] & 0xff) << 16)
              | ((body[position + 2] & 0xff) << 8)
              | (body[position + 3] & 0xff);
      position += 4;
      return value;
    }

    int int16() {
      require(2, "a 2-byte integer");
      int value = (short) (((body[position] & 0xff) << 8) | (body[position + 1] & 0xff));
      position += 2;
      return value;
    }

    byte int8() {
      require(1, "a byte");
      return body[position++];
    }

    /** A NUL-terminated UTF-8 string. */
    String string() {
      int end = position;
      while (end < body.length && body[end] != 0) {
        end++;
      }
      if (end >= body.length) {
        throw new ProtocolException("a message ends inside a string (no terminating NUL)");
      }
      String value = new String(body, position, end - position, StandardCharsets.UTF_8);
      position = end + 1;
      return value;
    }

    /**
     * {@code length} bytes, or null for -1. The length a client sends is checked against what the
     * message holds before anything is allocated.
     */
    byte[] bytes(int length) {
      if (length < 0) {
        return null;
      }
      require(length, length + " bytes");
      byte[] value = new byte[length];
      System.arraycopy(body, position, value, 0, length);
      position += length;
      return value;
    }

    private void require(int count, String what) {
      if (count > body.length - position) {
        throw new ProtocolException(
            "a message ends before "
                + what
                + " (it holds "
                + (body.length - position)
                + " more bytes)");
      }
    }

    boolean hasMore() {
      return position < body.length;
    }
  }

  /** Builds server messages into a buffer; {@link #flush} sends them. */
  static final class Writer {
    private final OutputStream out;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final ByteArrayOutputStream message = new ByteArrayOutputStream();

    /** Runs before buffered messages are sent; see {@link #beforeSending}. */
    interface BeforeSending {
      void run() throws IOException;
    }

    private BeforeSending beforeSending;

    Writer(OutputStream out) {
      this.out = out;
    }

    /**
     * Runs {@code hook} before anything buffered is sent (the hot tier forcing what the
     * connection's answers say is written). When it fails, what is buffered is dropped, the client
     * gets a FATAL error saying the outcome of its writes since its last answer is unknown, and the
     * failure is thrown: the connection ends.
     */
    void beforeSending(BeforeSending hook) {
      this.beforeSending = hook;
    }

    /** An ErrorResponse: severity, SQLSTATE, message and, when given, the detail. */
    void errorResponse(String severity, String state, String message, String detail) {
      errorResponse(severity, state, message, detail, 0);
    }

    /**
     * An ErrorResponse whose {@code position} (1-based, in characters of the query string; 0 for
     * none) tells a client such as psql where to put its caret.
     */
    void errorResponse(String severity, String state, String message, String detail, int position) {
      begin('E')
          .int8('S')
          .string(severity)
          .int8('V')
          .string(severity)
          .int8('C')
          .string(state)
          .int8('M')
          .string(message);
      if (detail != null) {
        int8('D').string(detail);
      }
      if (position > 0) {
        int8('P').string(Integer.toString(position));
      }
      int8(0).end();
    }

    Writer begin(char type) {
      message.reset();
      buffer.write(type);
      return this;
    }

    Writer int32(int value) {
      message.write(value >>> 24);
      message.write(value >>> 16);
      message.write(value >>> 8);
      message.write(value);
      return this;
    }

    Writer int16(int value) {
      message.write(value >>> 8);
      message.write(value);
      return this;
    }

    Writer int8(int value) {
      message.write(value);
      return this;
    }

    Writer string(String value) {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      message.write(bytes, 0, bytes.length);
      message.write(0);
      return this;
    }

    Writer bytes(byte[] value) {
      message.writeBytes(value);
      return this;
    }

    /** Ends the message begun last: its length goes before its body. */
    void end() {
      int length = message.size() + 4;
      buffer.write(length >>> 24);
      buffer.write(length >>> 16);
      buffer.write(length >>> 8);
      buffer.write(length);
      buffer.writeBytes(message.toByteArray());
    }

    /** Sends one byte outside any message (the answer to an SSL or GSS request). */
    void raw(int value) throws IOException {
      buffer.write(value);
      flush();
    }

    /**
     * Sends what is buffered once it holds more than {@code bytes}: a long answer goes out as it is
     * made instead of piling up in memory.
     */
    void flushPast(int bytes) throws IOException {
      if (buffer.size() > bytes) {
        flush();
      }
    }

    void flush() throws IOException {
      if (beforeSending != null) {
        try {
          beforeSending.run();
        } catch (IOException e) {
          beforeSending = null;
          buffer.reset();
          errorResponse(
              "FATAL",
              "58030",
              "The server could not make its hot tier's log durable ("
                  + e.getMessage()
                  + "); the outcome of this connection's INSERTs since its last answer is"
                  + " unknown, and the connection ends",
              null);
          buffer.writeTo(out);
          buffer.reset();
          out.flush();
          throw e;
        }
      }
      buffer.writeTo(out);
      buffer.reset();
      out.flush();
    }
  }

  /**
   * A client's message that breaks the protocol's framing: answered with SQLSTATE 08P01 and the
   * connection closed, never read past its end.
   */
  static final class ProtocolException extends IllegalArgumentException {
    ProtocolException(String message) {
      super("Protocol violation: " + message);
    }
  }
}

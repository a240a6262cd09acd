package dev.timelake.server;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.zip.GZIPInputStream;

/**
 * Reads the request bodies of one line-protocol server, gunzipped when sent so, within the largest
 * body it takes and a budget of the bytes all its requests hold at once, so that many large
 * requests cannot exhaust the heap. Thread-safe; each {@link Held} belongs to one request.
 */
final class LineProtocolBodies {
  private final int maxBodyBytes;
  private final Semaphore inFlight;

  /** Bodies of at most {@code maxBodyBytes}, {@code bytesInFlight} held by all requests at once. */
  LineProtocolBodies(int maxBodyBytes, int bytesInFlight) {
    this.maxBodyBytes = maxBodyBytes;
    this.inFlight = new Semaphore(bytesInFlight >> 10);
  }

  /** The KiB of the in-flight budget one request holds, given back when closed. */
  final class Held implements AutoCloseable {
    private int kib;

    @Override
    public void close() {
      inFlight.release(kib);
    }
  }

  /** The in-flight budget is spent. */
  static final class Busy extends RuntimeException {
    Busy() {
      super(null, null, false, false);
    }
  }

  /** A request's share of the budget, none yet. */
  Held hold() {
    return new Held();
  }

  /**
   * The request body, gunzipped when sent so; empty when it is over the limit. What it reads is
   * added to {@code held}.
   *
   * @throws Busy when the budget is spent
   * @throws IOException when the client's stream fails, or its gzip data is corrupt
   */
  Optional<byte[]> read(HttpExchange exchange, Held held) throws IOException {
    InputStream in = exchange.getRequestBody();
    String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
    if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("gzip")) {
      in = new GZIPInputStream(in);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[64 << 10];
    int read;
    while ((read = in.read(buffer)) > 0) {
      if (out.size() + read > maxBodyBytes) {
        return Optional.empty();
      }
      int kib = (out.size() + read + 1023) / 1024 - held.kib;
      if (kib > 0) {
        if (!inFlight.tryAcquire(kib)) {
          throw new Busy();
        }
        held.kib += kib;
      }
      out.write(buffer, 0, read);
    }
    return Optional.of(out.toByteArray());
  }
}

package dev.timelake.cli;

import java.util.List;
import java.util.Locale;

/**
 * An import's status line on a terminal: the step, the rows read so far and their rate, and, once
 * some files are read, the time left estimated from the bytes read (a file is read in one go, so
 * the estimate moves file by file). Not thread-safe.
 */
final class ImportProgress {
  private final Progress line;
  private final List<Long> fileSizes;
  private final long startNanos = System.nanoTime();
  private String step = "starting";
  private int filesRead;
  private long rows;

  ImportProgress(Progress line, List<Long> fileSizes) {
    this.line = line;
    this.fileSizes = List.copyOf(fileSizes);
  }

  /** Shows what the import does now. */
  void step(String message) {
    step = message;
    show();
  }

  /** Records that {@code files} files holding {@code rows} rows are read. */
  void read(int files, long rows) {
    this.filesRead = files;
    this.rows = rows;
    show();
  }

  void clear() {
    line.clear();
  }

  private void show() {
    long total = fileSizes.stream().mapToLong(Long::longValue).sum();
    long read = fileSizes.stream().limit(filesRead).mapToLong(Long::longValue).sum();
    line.show(status(step, rows, System.nanoTime() - startNanos, read, total));
  }

  /**
   * The status line: {@code reading b.csv: 1,200,000 rows, 400,000 rows/s, about 12 s left}; the
   * rate once rows are read, the time left once some but not all bytes are.
   */
  static String status(String step, long rows, long elapsedNanos, long bytesRead, long bytes) {
    StringBuilder text = new StringBuilder(step);
    double seconds = Math.max(elapsedNanos, 1) / 1e9;
    if (rows > 0) {
      text.append(
          String.format(Locale.ROOT, ": %,d rows, %,d rows/s", rows, (long) (rows / seconds)));
    }
    if (bytesRead > 0 && bytesRead < bytes) {
      long left = (long) Math.ceil(seconds * (bytes - bytesRead) / bytesRead);
      text.append(rows > 0 ? ", " : ": ").append("about ").append(duration(left)).append(" left");
    }
    return text.toString();
  }

  private static String duration(long seconds) {
    return seconds < 120 ? seconds + " s" : (seconds + 59) / 60 + " min";
  }
}

package dev.timelake.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCacheTest {
  @TempDir Path root;

  private final AtomicLong now = new AtomicLong(System.currentTimeMillis());

  private FileCache cache(long maxBytes) {
    return new FileCache(root, maxBytes, now::get);
  }

  private static FileCache.Content bytes(int size) {
    return () -> new ByteArrayInputStream(new byte[size]);
  }

  @Test
  void aDownloadedCopyIsFoundWholeUnderItsLocation() throws Exception {
    FileCache cache = cache(1_000);
    Path copy = cache.download("s3://bucket/lake/t/data/a.parquet", bytes(100));

    assertThat(copy).isEqualTo(root.resolve("files/s3/bucket/lake/t/data/a.parquet"));
    assertThat(Files.size(copy)).isEqualTo(100);
    assertThat(cache.cached("s3://bucket/lake/t/data/a.parquet")).contains(copy);
    assertThat(cache.cached("s3://bucket/lake/t/data/b.parquet")).isEmpty();
    try (var partial = Files.list(root.resolve("partial"))) {
      assertThat(partial).isEmpty();
    }
  }

  @Test
  void overTheLimitTheLeastRecentlyUsedCopiesGoOnceNoQueryCanStillReadThem() {
    FileCache cache = cache(250);
    cache.download("s3://b/one", bytes(100));
    cache.download("s3://b/two", bytes(100));
    cache.download("s3://b/three", bytes(100));
    // Over the limit, but every copy was used within the protected time: all stay.
    assertThat(cache.totalBytes()).isEqualTo(300);
    assertThat(cache.cached("s3://b/one")).isPresent();

    now.addAndGet(FileCache.PROTECTED_MILLIS + 120_000);
    cache.cached("s3://b/one"); // used again: now the most recent
    cache.download("s3://b/four", bytes(100));

    assertThat(cache.cached("s3://b/two")).isEmpty();
    assertThat(cache.cached("s3://b/three")).isEmpty();
    assertThat(cache.cached("s3://b/one")).isPresent();
    assertThat(cache.cached("s3://b/four")).isPresent();
    assertThat(cache.totalBytes()).isEqualTo(200);
  }

  @Test
  void anotherProcessFindsTheCopiesOnDiskAndEvictsByTheirLastUse() throws Exception {
    FileCache first = cache(1_000);
    first.download("s3://b/old", bytes(100));
    first.download("s3://b/new", bytes(100));
    Files.setLastModifiedTime(
        root.resolve("files/s3/b/old"),
        java.nio.file.attribute.FileTime.fromMillis(now.get() - 2 * FileCache.PROTECTED_MILLIS));

    FileCache second = new FileCache(root, 250, now::get);
    assertThat(second.totalBytes()).isEqualTo(200);
    second.download("s3://b/newest", bytes(100));

    assertThat(second.cached("s3://b/old")).isEmpty();
    assertThat(second.cached("s3://b/new")).isPresent();
    assertThat(second.cached("s3://b/newest")).isPresent();
  }

  @Test
  void aRemovedCopyIsForgotten() {
    FileCache cache = cache(1_000);
    cache.download("s3://b/gone", bytes(10));
    cache.remove("s3://b/gone");
    assertThat(cache.cached("s3://b/gone")).isEmpty();
    assertThat(cache.totalBytes()).isZero();
  }

  @Test
  void aFailedDownloadLeavesNoCopy() {
    FileCache cache = cache(1_000);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                cache.download(
                    "s3://b/broken",
                    () -> {
                      throw new java.io.IOException("connection reset");
                    }))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageStartingWith("Cannot download s3://b/broken into ");
    assertThat(cache.cached("s3://b/broken")).isEmpty();
    assertThat(root.resolve("partial")).isEmptyDirectory();
  }

  @Test
  void locationsThatLeaveTheCacheFolderAreRefused() {
    FileCache cache = cache(1_000);
    assertThatThrownBy(() -> cache.pathOf("s3://b/../../etc/passwd"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot cache s3://b/../../etc/passwd: not a file location");
    assertThatThrownBy(() -> cache.pathOf("s3://b/folder/"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot cache s3://b/folder/: not a file location");
  }
}

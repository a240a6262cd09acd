package dev.timelake.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake deletes files only inside its warehouse, whatever a table's metadata names: a purge, an
 * expiry or an orphan cleanup of a table whose manifest lists a file elsewhere leaves it.
 */
class LakeFileIODeletesTest {
  @TempDir Path folder;

  @Test
  void deletesInsideTheWarehouseOnly() throws Exception {
    Path warehouse = Files.createDirectories(folder.resolve("warehouse"));
    Path inside = Files.writeString(warehouse.resolve("inside.parquet"), "x");
    Path outside = Files.writeString(folder.resolve("outside.parquet"), "x");
    Path sneaky = warehouse.resolve("../sneaky.parquet");
    Files.writeString(sneaky, "x");
    LakeFileIO io = new LakeFileIO();
    io.initialize(Map.of("warehouse", warehouse.toString()));

    io.deleteFile(outside.toString());
    io.deleteFiles(List.of(sneaky.toString(), "file:" + outside));
    io.deletePrefix(folder.toString());
    io.deleteFile(inside.toString());

    assertThat(outside).exists();
    assertThat(sneaky.normalize()).exists();
    assertThat(inside).doesNotExist();
  }

  @Test
  void aCatalogThatNamesNoWarehouseKeepsDeletingAsBefore() throws Exception {
    Path file = Files.writeString(folder.resolve("anywhere.parquet"), "x");
    LakeFileIO io = new LakeFileIO();
    io.initialize(Map.of());

    io.deleteFile(file.toString());

    assertThat(file).doesNotExist();
  }

  @Test
  void remoteLocationsMustLieUnderTheWarehousePrefix() {
    LakeFileIO io = new LakeFileIO();
    io.initialize(Map.of("warehouse", "s3://bucket/lake"));

    assertThat(io.isInsideWarehouse("s3://bucket/lake/iot/r/data/a.parquet")).isTrue();
    assertThat(io.isInsideWarehouse("s3://bucket/lake-other/a.parquet")).isFalse();
    assertThat(io.isInsideWarehouse("s3://bucket/lake/../secrets/a")).isFalse();
    assertThat(io.isInsideWarehouse("/tmp/a.parquet")).isFalse();
  }
}

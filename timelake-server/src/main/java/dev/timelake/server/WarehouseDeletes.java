package dev.timelake.server;

import dev.timelake.storage.LakeFileIO;
import dev.timelake.storage.LocalFileIO;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * A catalog's file IO for purges: reads as it does, deletes only files inside the warehouse (local
 * ones also once symbolic links are resolved), and nothing when the warehouse is unknown.
 */
record WarehouseDeletes(FileIO io, Optional<String> warehouse) implements FileIO {
  @Override
  public InputFile newInputFile(String location) {
    return io.newInputFile(location);
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return io.newInputFile(location, length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return io.newOutputFile(location);
  }

  @Override
  public void deleteFile(String location) {
    if (warehouse.isPresent() && storedInside(location, warehouse.get())) {
      io.deleteFile(location);
    }
  }

  @Override
  public Map<String, String> properties() {
    return io.properties();
  }

  @Override
  public void close() {
    // The catalog's file IO: the catalog closes it.
  }

  private static boolean storedInside(String location, String root) {
    if (!RestConfinement.within(location, root)) {
      return false;
    }
    if (LakeFileIO.isRemote(location)) {
      return true;
    }
    try {
      java.nio.file.Path folder = LocalFileIO.path(location).getParent();
      return java.nio.file.Files.isDirectory(folder)
          && folder.toRealPath().startsWith(LocalFileIO.path(root).toRealPath());
    } catch (IOException | IllegalArgumentException e) {
      return false; // a file that cannot be resolved is not deleted
    }
  }
}

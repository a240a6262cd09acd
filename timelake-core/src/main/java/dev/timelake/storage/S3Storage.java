package dev.timelake.storage;

import dev.timelake.TimelakeException;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.DelegateFileIO;

/**
 * Iceberg's S3FileIO, reached only through this class so that the AWS SDK is loaded for object
 * storage alone: {@code timelake.jar} leaves it out (it is {@code timelake-s3.jar}, found beside
 * it), and a warehouse in a folder never touches it.
 */
final class S3Storage {
  private S3Storage() {}

  /** An initialized S3FileIO for {@code location} and the locations like it. */
  static DelegateFileIO open(String location, Map<String, String> properties) {
    try {
      return Sdk.initialized(properties);
    } catch (NoClassDefFoundError e) {
      throw TimelakeException.validation(
          "Cannot open %s: object storage needs the AWS SDK, which is not on the class path; put"
              + " timelake-s3.jar (built beside timelake.jar, in timelake-cli/target) next to"
              + " timelake.jar, or add org.apache.iceberg:iceberg-aws and the AWS SDK's s3 module"
              + " to your application (missing: %s)",
          location, e.getMessage());
    }
  }

  /** The only class naming the SDK's types: its loading fails alone when they are missing. */
  private static final class Sdk {
    static DelegateFileIO initialized(Map<String, String> properties) {
      S3FileIO io = new S3FileIO();
      io.initialize(properties);
      return io;
    }
  }
}

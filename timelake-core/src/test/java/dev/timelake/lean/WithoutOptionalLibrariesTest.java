package dev.timelake.lean;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The core as timelake.jar ships it: without Hadoop and the AWS SDK (optional dependencies), a lake
 * in a folder is created, written, read, deleted from, maintained and rolled up; a Hadoop catalog
 * and an s3:// warehouse are refused with errors that say what is missing. Runs {@link LeanProbe}
 * in a JVM whose class path is this one's without those libraries.
 */
class WithoutOptionalLibrariesTest {
  @TempDir Path directory;

  @Test
  void aFolderWarehouseWorksAndHadoopAndS3SayWhatIsMissing() throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // A short-lived child, as the other tests' are: the quick compiler only and the
                // serial collector (4.4 s instead of 6.4 here, 2 s less CPU).
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                leanClassPath(),
                LeanProbe.class.getName(),
                directory.toString())
            .redirectErrorStream(true)
            .start();
    String output;
    try (var in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output)
        .contains("hadoop absent: true")
        .contains("aws absent: true")
        .contains("rows: 3")
        .contains("after delete: 2")
        .contains("routed: true")
        .contains("maintained: 1 file")
        .contains(
            "hadoop catalog: Cannot open catalog hadoop at "
                + directory.resolve("hadoop-warehouse")
                + ": a hadoop catalog needs Hadoop's client classes")
        .contains(
            "s3: Cannot read s3://bucket/lake/timelake-catalog.properties: Cannot open"
                + " s3://bucket/lake/timelake-catalog.properties: object storage needs the AWS SDK")
        .contains(
            "put timelake-s3.jar (built beside timelake.jar, in timelake-cli/target) next to");
  }

  /** This JVM's class path without Hadoop, the AWS SDK and Iceberg's AWS module. */
  private static String leanClassPath() throws IOException {
    List<String> kept = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String path = entry.replace('\\', '/');
      if (!path.contains("/org/apache/hadoop/")
          && !path.contains("/software/amazon/")
          && !path.contains("/iceberg-aws/")) {
        kept.add(entry);
      }
    }
    return Arrays.stream(kept.toArray(String[]::new))
        .collect(Collectors.joining(File.pathSeparator));
  }
}

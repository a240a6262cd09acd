package dev.timelake.spark;

import dev.timelake.TableName;
import dev.timelake.TimelakeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * A DataFrame's rows written by Spark's executors as Parquet files into a folder of their own,
 * where the driver reads them; {@link #close()} deletes the folder. The files list in the
 * DataFrame's order (partition by partition), so that the later of two copies of a key in the
 * DataFrame is the later one in the append.
 *
 * <p>The folder lies under {@value #STAGING}, a folder the driver and every executor mount; a local
 * Spark may leave it unset (the JVM's temporary folder is used). Spark's Parquet values arrive in
 * DuckDB unchanged: timestamps are written as 64-bit microseconds (Spark's default, INT96, carries
 * no time-zone flag), so TIMESTAMP columns arrive as instants and TIMESTAMP_NTZ ones as local
 * times.
 */
final class StagedRows implements AutoCloseable {
  /** The Spark setting naming the folder under which appends stage their rows. */
  static final String STAGING = "spark.timelake.staging";

  private static final System.Logger LOG = System.getLogger(StagedRows.class.getName());

  /** Spark's name of a task's output file: part-{task}-{job uuid}-c{file of the task}… */
  private static final Pattern PART = Pattern.compile("part-(\\d+)-.*-c(\\d+).*\\.parquet");

  private final Path folder;
  private final List<Path> files;

  private StagedRows(Path folder, List<Path> files) {
    this.folder = folder;
    this.files = List.copyOf(files);
  }

  /**
   * Writes {@code rows} as Parquet files under the staging folder of their session.
   *
   * @throws dev.timelake.ValidationException when a Spark that is not local has no staging folder
   */
  static StagedRows write(Dataset<Row> rows, TableName table) {
    Path folder = newFolder(rows.sparkSession(), table);
    try {
      Path output = folder.resolve("rows");
      rows.write()
          .mode(SaveMode.ErrorIfExists)
          // Read from the write's options before the session's (Spark's ParquetUtils).
          .option("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
          .option("maxRecordsPerFile", "0")
          .parquet(output.toUri().toString());
      return new StagedRows(folder, parts(output));
    } catch (Throwable e) {
      // Also a failed Spark job, a SparkException (checked, though Scala does not declare it).
      new StagedRows(folder, List.of()).close();
      throw e;
    }
  }

  /** The Parquet files, in the DataFrame's order; none when Spark wrote none. */
  List<Path> files() {
    return files;
  }

  private static Path newFolder(SparkSession spark, TableName table) {
    Optional<String> configured = Optional.ofNullable(spark.conf().get(STAGING, null));
    if (configured.isEmpty() && !spark.sparkContext().isLocal()) {
      throw TimelakeException.validation(
          "Cannot append to %s from Spark: set %s to a folder the driver and every executor"
              + " mount (executors write the rows there as Parquet, the driver appends them)",
          table, STAGING);
    }
    try {
      Path base = Path.of(configured.orElse(System.getProperty("java.io.tmpdir")));
      Files.createDirectories(base);
      return Files.createTempDirectory(base, "timelake-append-");
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot append to " + table + " from Spark: cannot create a staging folder", e);
    }
  }

  private static List<Path> parts(Path output) {
    try (Stream<Path> listed = Files.list(output)) {
      return listed
          .filter(file -> PART.matcher(file.getFileName().toString()).matches())
          .sorted(Comparator.comparing(StagedRows::task).thenComparing(StagedRows::fileOfTask))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the staged rows in " + output, e);
    }
  }

  private static long task(Path file) {
    return Long.parseLong(part(file).group(1));
  }

  private static long fileOfTask(Path file) {
    return Long.parseLong(part(file).group(2));
  }

  private static Matcher part(Path file) {
    Matcher matcher = PART.matcher(file.getFileName().toString());
    if (!matcher.matches()) {
      throw new IllegalStateException("Not a Spark output file: " + file);
    }
    return matcher;
  }

  /**
   * Deletes the folder. A folder left behind is logged, not thrown: by now the append has committed
   * or failed, and its outcome must not be hidden by a leftover folder.
   */
  @Override
  public void close() {
    try {
      delete(folder);
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "Cannot delete the staged rows in " + folder, e);
    }
  }

  private static void delete(Path folder) throws IOException {
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

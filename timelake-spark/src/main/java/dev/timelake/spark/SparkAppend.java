package dev.timelake.spark;

import dev.timelake.Append;
import dev.timelake.AppendResult;
import dev.timelake.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.Metadata;

/**
 * A DataFrame appended to a table by Timelake's own append: the schemas are checked first, then the
 * executors write the rows as Parquet ({@link StagedRows}) and the driver appends those files in
 * one {@link Append}, which applies every rule of an embedded append (types and required columns,
 * insertion time, copies within the write, fresh and late files, batch ids, ordered-index
 * conflicts, one commit, inline maintenance and rollup refresh).
 */
final class SparkAppend {
  private SparkAppend() {}

  static AppendResult run(
      Dataset<Row> rows, LakeAddress address, String tableName, Optional<String> batchId) {
    Table table = address.lake().table(tableName);
    Append append = table.newAppend();
    batchId.ifPresent(append::batchId);
    SparkWriteSchema schema =
        new SparkWriteSchema(table.name(), table.columns(), table.ingestTimeColumn());
    Dataset<Row> aligned = aligned(rows, schema.matches(rows.schema()));
    try (StagedRows staged = staged(aligned, table)) {
      if (!staged.files().isEmpty()) {
        append.fromParquet(staged.files().toArray(Path[]::new));
      }
      return append.commit();
    }
  }

  /** The rows written by Spark's executors, the job named for Spark's UI while it runs. */
  private static StagedRows staged(Dataset<Row> rows, Table table) {
    SparkContext context = rows.sparkSession().sparkContext();
    context.setJobDescription("Timelake append to " + table.name() + ": staging rows");
    try {
      return StagedRows.write(rows, table.name());
    } finally {
      context.setJobDescription(null);
    }
  }

  /**
   * The DataFrame's columns under the table's names, without their metadata: a DataFrame read from
   * another table carries that table's Parquet field ids, which must not reach the staged files.
   */
  private static Dataset<Row> aligned(Dataset<Row> rows, List<SparkWriteSchema.Match> matches) {
    Column[] columns =
        matches.stream()
            .map(match -> rows.col(quoted(match.field())).as(match.column(), Metadata.empty()))
            .toArray(Column[]::new);
    return rows.select(columns);
  }

  /** A column name as Spark parses it literally (dots and backticks included). */
  private static String quoted(String name) {
    return "`" + name.replace("`", "``") + "`";
  }
}

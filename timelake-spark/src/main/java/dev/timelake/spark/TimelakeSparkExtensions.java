package dev.timelake.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Spark session extensions of Timelake: reads of {@link TimelakeCatalog} tables become Timelake's
 * deduplicated reads. Enable with {@code
 * spark.sql.extensions=dev.timelake.spark.TimelakeSparkExtensions}.
 */
public final class TimelakeSparkExtensions implements Function1<SparkSessionExtensions, BoxedUnit> {
  @Override
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    extensions.injectResolutionRule(ResolveTimelakeTables::new);
    return BoxedUnit.UNIT;
  }
}

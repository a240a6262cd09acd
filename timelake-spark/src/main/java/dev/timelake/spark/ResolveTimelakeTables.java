package dev.timelake.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.Function1;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractPartialFunction;

/**
 * Replaces each relation of a {@link TimelakeSparkTable} with {@link TimelakeSpark#read}'s plan of
 * the table, projected to the relation's own attributes (their ids are what the rest of the query
 * refers to).
 */
final class ResolveTimelakeTables extends Rule<LogicalPlan> {
  private final SparkSession spark;

  ResolveTimelakeTables(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    return plan.transformUp(
        new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
          @Override
          public boolean isDefinedAt(LogicalPlan node) {
            return node instanceof DataSourceV2Relation relation
                && relation.table() instanceof TimelakeSparkTable;
          }

          @Override
          public <A1 extends LogicalPlan, B1> B1 applyOrElse(A1 node, Function1<A1, B1> otherwise) {
            if (!isDefinedAt(node)) {
              return otherwise.apply(node);
            }
            @SuppressWarnings("unchecked")
            B1 replaced = (B1) replace((DataSourceV2Relation) node);
            return replaced;
          }
        });
  }

  private LogicalPlan replace(DataSourceV2Relation relation) {
    TimelakeSparkTable table = (TimelakeSparkTable) relation.table();
    LogicalPlan read =
        ((org.apache.spark.sql.classic.Dataset<?>)
                TimelakeSpark.read(spark, table.address(), table.table().toString()))
            .queryExecution()
            .analyzed();
    List<Attribute> produced = CollectionConverters.asJava(read.output());
    List<NamedExpression> projection = new ArrayList<>();
    for (AttributeReference wanted : CollectionConverters.asJava(relation.output())) {
      Attribute source =
          produced.stream()
              .filter(a -> a.name().equals(wanted.name()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "Timelake's read of "
                              + table.table()
                              + " has no column "
                              + wanted.name()));
      projection.add(
          new Alias(
              source,
              wanted.name(),
              wanted.exprId(),
              wanted.qualifier(),
              Option.empty(),
              CollectionConverters.asScala(List.<String>of()).toList()));
    }
    return new Project(CollectionConverters.asScala(projection).toList(), read);
  }
}

package dev.timelake.lean;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import java.nio.file.Path;
import java.util.Map;

/** Run by {@link WithoutOptionalLibrariesTest} in a JVM without Hadoop and the AWS SDK. */
public final class LeanProbe {
  private LeanProbe() {}

  public static void main(String[] args) {
    Path root = Path.of(args[0]);
    System.out.println("hadoop absent: " + absent("org.apache.hadoop.conf.Configuration"));
    System.out.println("aws absent: " + absent("software.amazon.awssdk.services.s3.S3Client"));
    try (Lake lake = Lake.open(root.resolve("warehouse"));
        Session session = lake.newSession()) {
      session
          .sql(
              "CREATE TABLE iot.readings (tag VARCHAR, time TIMESTAMPTZ, value DOUBLE)"
                  + " WITH (time_column = 'time', series_key = 'tag')")
          .close();
      session
          .sql(
              "INSERT INTO iot.readings VALUES ('a', TIMESTAMPTZ '2026-01-01 00:00:00+00', 1),"
                  + " ('a', TIMESTAMPTZ '2026-01-01 01:00:00+00', 2),"
                  + " ('b', TIMESTAMPTZ '2026-01-01 00:00:00+00', 3)")
          .close();
      session
          .sql("INSERT INTO iot.readings VALUES ('b', TIMESTAMPTZ '2026-01-01 00:00:00+00', 4)")
          .close();
      System.out.println("rows: " + count(session, "SELECT count(*) FROM iot.readings"));
      session
          .sql(
              "CREATE MATERIALIZED ROLLUP iot.readings_1h AS SELECT tag,"
                  + " time_bucket(INTERVAL '1 hour', time) AS bucket, max(value) AS max_value"
                  + " FROM iot.readings GROUP BY tag, bucket")
          .close();
      try (QueryResult routed =
          session.sql(
              "SELECT tag, time_bucket(INTERVAL '1 hour', time) AS bucket, max(value)"
                  + " FROM iot.readings GROUP BY ALL")) {
        System.out.println("routed: " + routed.isRouted());
      }
      session.sql("DELETE FROM iot.readings WHERE tag = 'a' AND value = 1").close();
      System.out.println("after delete: " + count(session, "SELECT count(*) FROM iot.readings"));
      int files = lake.table("iot.readings").newMaintenance().run().filesAfter();
      System.out.println("maintained: " + files + " file" + (files == 1 ? "" : "s"));
    }
    try (Lake hadoop =
        Lake.open(
            Map.of("type", "hadoop", "warehouse", root.resolve("hadoop-warehouse").toString()),
            root.resolve("tmp"))) {
      System.out.println("hadoop catalog: opened");
    } catch (TimelakeException e) {
      System.out.println("hadoop catalog: " + e.getMessage());
    }
    try (Lake s3 =
        Lake.open(
            "s3://bucket/lake",
            Map.of(
                "uri",
                "jdbc:sqlite:" + root.resolve("catalog.db"),
                "s3.endpoint",
                "http://127.0.0.1:9"))) {
      System.out.println("s3: opened");
    } catch (TimelakeException e) {
      System.out.println("s3: " + e.getMessage());
    }
  }

  private static long count(Session session, String sql) {
    try (QueryResult result = session.sql(sql)) {
      return ((Number) result.rows().get(0).get(0)).longValue();
    }
  }

  private static boolean absent(String className) {
    try {
      Class.forName(className);
      return false;
    } catch (ClassNotFoundException e) {
      return true;
    }
  }
}

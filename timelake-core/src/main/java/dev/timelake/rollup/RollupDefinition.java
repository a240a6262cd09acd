package dev.timelake.rollup;

import static java.util.Objects.requireNonNull;

import dev.timelake.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A validated rollup definition: the raw table, the grouping (series-key) columns, the bucket width
 * and origin, the bucket column's name and the stored aggregates, plus the rollup table's options
 * from {@code WITH (…)}.
 */
public record RollupDefinition(
    TableName name,
    TableName source,
    List<String> keys,
    String bucketColumn,
    long widthMicros,
    long originMicros,
    List<RollupAggregate> aggregates,
    Map<String, String> options,
    String selectSql) {

  public RollupDefinition {
    requireNonNull(name, "name is null");
    requireNonNull(source, "source is null");
    keys = List.copyOf(keys);
    requireNonNull(bucketColumn, "bucketColumn is null");
    aggregates = List.copyOf(aggregates);
    options = Map.copyOf(options);
    requireNonNull(selectSql, "selectSql is null");
  }

  /** The aggregates as the JSON stored in {@code timelake.rollup-aggregates}. */
  public String aggregatesJson() {
    List<String> items = new ArrayList<>();
    aggregates.forEach(a -> items.add(a.toJson()));
    return "[" + String.join(",", items) + "]";
  }

  private static final Pattern AGGREGATE =
      Pattern.compile(
          "\\{\"name\":\"((?:[^\"\\\\]|\\\\.)*)\",\"function\":\"([a-z_]+)\",\"column\":(null|\"((?:[^\"\\\\]|\\\\.)*)\")\\}");

  /** Parses the JSON written by {@link #aggregatesJson()}. */
  public static List<RollupAggregate> parseAggregates(String json) {
    List<RollupAggregate> aggregates = new ArrayList<>();
    Matcher matcher = AGGREGATE.matcher(json);
    while (matcher.find()) {
      aggregates.add(
          new RollupAggregate(
              unescape(matcher.group(1)),
              matcher.group(2),
              Optional.ofNullable(matcher.group(4)).map(RollupDefinition::unescape)));
    }
    return aggregates;
  }

  private static String unescape(String text) {
    return text.replace("\\\"", "\"").replace("\\\\", "\\");
  }
}

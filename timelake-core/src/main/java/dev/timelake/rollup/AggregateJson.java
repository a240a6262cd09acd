package dev.timelake.rollup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.timelake.TimelakeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The JSON of {@code timelake.rollup-aggregates}: a list of {@code {"name", "function", "column"}}
 * objects ({@code column} null for {@code count(*)}), plus {@code "arguments"} (a list of strings)
 * when the call has any. Unknown fields are ignored, so later versions may add some.
 */
final class AggregateJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private AggregateJson() {}

  static String write(List<StoredAggregate> aggregates) {
    ArrayNode list = JSON.createArrayNode();
    for (StoredAggregate aggregate : aggregates) {
      ObjectNode item = list.addObject();
      item.put("name", aggregate.name());
      item.put("function", aggregate.function());
      aggregate
          .call()
          .column()
          .ifPresentOrElse(c -> item.put("column", c), () -> item.putNull("column"));
      if (!aggregate.call().arguments().isEmpty()) {
        ArrayNode arguments = item.putArray("arguments");
        aggregate.call().arguments().forEach(arguments::add);
      }
    }
    return list.toString();
  }

  /** Parses the property; {@code table} names the rollup in errors. */
  static List<StoredAggregate> read(String json, String table) {
    JsonNode root;
    try {
      root = JSON.readTree(json == null ? "" : json);
    } catch (JsonProcessingException e) {
      throw invalid(table, json, e.getOriginalMessage());
    }
    if (root == null || !root.isArray()) {
      throw invalid(table, json, "expected a JSON list");
    }
    List<StoredAggregate> aggregates = new ArrayList<>();
    for (JsonNode item : root) {
      JsonNode name = item.get("name");
      JsonNode function = item.get("function");
      JsonNode column = item.get("column");
      if (name == null || !name.isTextual() || function == null || !function.isTextual()) {
        throw invalid(table, json, "every aggregate needs a text name and function");
      }
      List<String> arguments = new ArrayList<>();
      JsonNode list = item.get("arguments");
      if (list != null && list.isArray()) {
        list.forEach(argument -> arguments.add(argument.asText()));
      }
      Optional<String> columnName =
          column == null || column.isNull() ? Optional.empty() : Optional.of(column.asText());
      aggregates.add(
          new StoredAggregate(
              name.asText(), new AggregateCall(function.asText(), columnName, arguments)));
    }
    return aggregates;
  }

  private static TimelakeException invalid(String table, String json, String reason) {
    return TimelakeException.validation(
        "Cannot read rollup %s: its property timelake.rollup-aggregates is not valid (%s): %s",
        table, reason, json);
  }
}

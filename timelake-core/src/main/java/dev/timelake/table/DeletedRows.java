package dev.timelake.table;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.timelake.time.TimeInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Snapshot;

/**
 * What a DELETE's commit records about the rows it removed: their time span and, when the table had
 * rollups that follow deletes, a Parquet file of the removed rows' distinct (columns…) — the
 * rollups' grouping columns and the time column — from which a refresh finds the cells that lost
 * rows.
 */
public record DeletedRows(TimeInterval span, Optional<String> file, List<String> columns) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public DeletedRows {
    requireNonNull(span, "span is null");
    requireNonNull(file, "file is null");
    columns = List.copyOf(columns);
  }

  /** What the commit {@code snapshot} records, when a DELETE removed rows with times in it. */
  public static Optional<DeletedRows> of(Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary();
    if (!SnapshotSummaries.DELETE_OPERATION.equals(summary.get(SnapshotSummaries.OPERATION))) {
      return Optional.empty();
    }
    String min = summary.get(SnapshotSummaries.DELETED_TIME_MIN);
    String max = summary.get(SnapshotSummaries.DELETED_TIME_MAX);
    // A DELETE of rows without times (NULL) changes no bucket; one written before the span was
    // recorded counts as touching every instant.
    TimeInterval span =
        min == null || max == null
            ? TimeInterval.ALL
            : new TimeInterval(Long.parseLong(min), endAfter(Long.parseLong(max)));
    return Optional.of(
        new DeletedRows(
            span,
            Optional.ofNullable(summary.get(SnapshotSummaries.DELETED_ROWS_FILE)),
            columns(summary.get(SnapshotSummaries.DELETED_ROWS_COLUMNS))));
  }

  /** True when the file holds every one of {@code needed} (compared as Timelake compares names). */
  public boolean holds(List<String> needed) {
    if (file.isEmpty()) {
      return false;
    }
    for (String column : needed) {
      if (columns.stream().noneMatch(column::equalsIgnoreCase)) {
        return false;
      }
    }
    return true;
  }

  /** The columns of a removed-rows file, as its commits record them. */
  public static String columnsJson(List<String> columns) {
    try {
      return JSON.writeValueAsString(columns);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write column names as JSON: " + columns, e);
    }
  }

  private static List<String> columns(String json) {
    if (json == null) {
      return List.of();
    }
    List<String> columns = new ArrayList<>();
    try {
      for (JsonNode name : JSON.readTree(json)) {
        columns.add(name.asText());
      }
    } catch (JsonProcessingException e) {
      return List.of(); // unreadable: the file is not used, the refresh rebuilds instead
    }
    return columns;
  }

  private static long endAfter(long max) {
    return max == Long.MAX_VALUE ? max : max + 1;
  }
}

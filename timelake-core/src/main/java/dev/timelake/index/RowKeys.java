package dev.timelake.index;

import dev.timelake.engine.SqlText;
import dev.timelake.table.TableContract;
import java.util.ArrayList;
import java.util.List;

/**
 * What makes two rows copies of one another, as SQL over a relation with the table's columns: the
 * series key and the time for most tables, the series key and the index interval's ordinal for a
 * table whose newest row per interval replaces the others ({@code on-conflict = replace}).
 */
public final class RowKeys {
  private RowKeys() {}

  /** The key expressions, unqualified, in (series key…, time or interval) order. */
  public static List<String> of(TableContract contract) {
    List<String> key = new ArrayList<>();
    contract.seriesKey().forEach(column -> key.add(SqlText.identifier(column)));
    contract
        .timeColumn()
        .ifPresent(
            time ->
                key.add(
                    contract.replacesWithinInterval()
                        ? new IntervalSql(contract).ordinal()
                        : SqlText.identifier(time)));
    return key;
  }

  /** {@link #of} joined by commas, for PARTITION BY or GROUP BY. */
  public static String list(TableContract contract) {
    return String.join(", ", of(contract));
  }
}

package dev.timelake.index;

import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.SqlText;
import dev.timelake.table.TableContract;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL that maps rows to (identity, interval) pairs: the interval ordinal of the index column
 * (Euclidean floor, in DuckDB's truncating integer division), the first pair held twice, and the
 * coverage of a relation computed in runs of consecutive intervals so that a year of minutes per
 * series comes back as a handful of rows.
 */
public final class IntervalSql {
  private final TableContract contract;
  private final IndexIntervals intervals;

  public IntervalSql(TableContract contract) {
    this.contract = contract;
    this.intervals = IndexIntervals.of(contract).orElseThrow();
  }

  public IndexIntervals intervals() {
    return intervals;
  }

  /** The interval ordinal (signed; the id with its sign bit flipped) of each row's index value. */
  public String ordinal() {
    String value = SqlText.identifier(contract.timeColumn().orElseThrow());
    if (intervals.domain() == IndexIntervals.Domain.TIMESTAMP) {
      BigInteger micros = intervals.width().multiply(BigInteger.valueOf(1_000_000L));
      String epochMicros = "epoch_us(" + value + ")";
      // ⌊⌊µs ÷ 10⁶⌋ ÷ w⌋ = ⌊µs ÷ (10⁶ w)⌋: one division while 10⁶ w fits in a BIGINT.
      return micros.bitLength() < 64
          ? floorDiv(epochMicros, micros.toString())
          : floorDiv(floorDiv(epochMicros, "1000000"), intervals.width().toString());
    }
    return floorDiv(value, intervals.width().toString());
  }

  private static String floorDiv(String value, String width) {
    return "(("
        + value
        + ") // "
        + width
        + " - CASE WHEN ("
        + value
        + ") % "
        + width
        + " < 0 THEN 1 ELSE 0 END)";
  }

  /** A pair that two rows of {@code relation} share, if any. */
  public record Duplicate(EntityIdentity identity, long id) {}

  /** The first pair that more than one row of {@code relation} holds. */
  public Optional<Duplicate> firstDuplicate(EngineConnection connection, String relation) {
    String entities = entityList();
    List<List<Object>> rows =
        connection.rows(
            "SELECT "
                + entities
                + (entities.isEmpty() ? "" : ", ")
                + ordinal()
                + " AS __tl_o FROM "
                + relation
                + " WHERE "
                + indexPresent()
                + " GROUP BY ALL HAVING count(*) > 1 ORDER BY ALL LIMIT 1");
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    List<Object> row = rows.get(0);
    int keys = contract.seriesKey().size();
    return Optional.of(
        new Duplicate(identity(row, keys), id(((Number) row.get(keys)).longValue())));
  }

  /** The pairs the rows of a relation hold, and whether two rows hold the same pair. */
  public record Pairs(Coverage coverage, boolean duplicated) {}

  /**
   * The pairs the rows of {@code relation} hold. One aggregate per identity answers the usual case,
   * an identity whose rows fill consecutive intervals once each; only otherwise are the runs of
   * consecutive intervals computed.
   */
  public Pairs pairs(EngineConnection connection, String relation) {
    String entities = entityList();
    String select = entities + (entities.isEmpty() ? "" : ", ");
    String rows =
        "(SELECT "
            + select
            + ordinal()
            + " AS __tl_o FROM "
            + relation
            + " WHERE "
            + indexPresent()
            + ")";
    int keys = contract.seriesKey().size();
    Coverage coverage = new Coverage();
    boolean duplicated = false;
    boolean gaps = false;
    for (List<Object> row :
        connection.rows(
            "SELECT "
                + select
                + "min(__tl_o), max(__tl_o), count(*), count(DISTINCT __tl_o) FROM "
                + rows
                + (entities.isEmpty() ? "" : " GROUP BY " + entities))) {
      long count = ((Number) row.get(keys + 2)).longValue();
      if (count == 0) {
        continue;
      }
      long first = ((Number) row.get(keys)).longValue();
      long last = ((Number) row.get(keys + 1)).longValue();
      long distinct = ((Number) row.get(keys + 3)).longValue();
      duplicated |= distinct != count;
      if (last - first + 1 == distinct) {
        coverage.add(identity(row, keys), id(first), id(last));
      } else {
        gaps = true;
      }
    }
    return new Pairs(gaps ? runs(connection, rows) : coverage, duplicated);
  }

  /** The coverage of {@code rows} (a relation of entities and ordinals), by runs. */
  private Coverage runs(EngineConnection connection, String rows) {
    String entities = entityList();
    String select = entities + (entities.isEmpty() ? "" : ", ");
    String partition = entities.isEmpty() ? "" : "PARTITION BY " + entities + " ";
    String sql =
        "WITH __tl_pairs AS (SELECT DISTINCT * FROM "
            + rows
            + "), __tl_runs AS (SELECT *, __tl_o - row_number() OVER ("
            + partition
            + "ORDER BY __tl_o) AS __tl_run FROM __tl_pairs) SELECT "
            + select
            + "min(__tl_o), max(__tl_o) FROM __tl_runs GROUP BY "
            + select
            + "__tl_run";
    Coverage coverage = new Coverage();
    int keys = contract.seriesKey().size();
    for (List<Object> row : connection.rows(sql)) {
      coverage.add(
          identity(row, keys),
          id(((Number) row.get(keys)).longValue()),
          id(((Number) row.get(keys + 1)).longValue()));
    }
    return coverage;
  }

  private String indexPresent() {
    return SqlText.identifier(contract.timeColumn().orElseThrow()) + " IS NOT NULL";
  }

  private String entityList() {
    return SqlText.identifiers(contract.seriesKey());
  }

  private long id(long ordinal) {
    return intervals.domain() == IndexIntervals.Domain.UINT64
        ? ordinal
        : ordinal ^ IndexIntervals.SIGN_BIT;
  }

  private static EntityIdentity identity(List<Object> row, int keys) {
    List<Object> values = new ArrayList<>(keys);
    for (int i = 0; i < keys; i++) {
      values.add(entityValue(row.get(i)));
    }
    return new EntityIdentity(values);
  }

  /**
   * An entity value as DuckDB returns it: a UBIGINT column, stored as DECIMAL(20,0), comes back as
   * a BigDecimal and is kept as its BigInteger.
   */
  static Object entityValue(Object value) {
    return value instanceof java.math.BigDecimal decimal ? decimal.toBigIntegerExact() : value;
  }
}

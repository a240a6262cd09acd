package dev.timelake.read;

import dev.timelake.ColumnType;
import dev.timelake.engine.SqlText;
import dev.timelake.table.TableContract;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.expressions.UnboundPredicate;

/**
 * A plan's pruning filter as a SQL condition on each file scan, so that rows of other series and
 * times are dropped inside the scans that dedup joins, not only after them: DuckDB pushes a filter
 * above the relation into the rows it ranks, but not into the list of keys the late files hold.
 *
 * <p>Safe before dedup because the filter only uses time and series-key columns: every copy of a
 * key passes or fails it together. The condition may be weaker than the filter (a term it cannot
 * render becomes true), never stronger.
 */
final class RowFilter {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private RowFilter() {}

  /** The condition for {@code filter}; empty when nothing can be rendered (read every row). */
  static Optional<String> condition(Expression filter, TableContract contract) {
    return switch (filter.op()) {
      case AND -> {
        // Leaving out a term only weakens a conjunction.
        And and = (And) filter;
        List<String> terms = new ArrayList<>();
        condition(and.left(), contract).ifPresent(terms::add);
        condition(and.right(), contract).ifPresent(terms::add);
        yield terms.isEmpty() ? Optional.empty() : Optional.of(String.join(" AND ", terms));
      }
      case OR -> {
        Or or = (Or) filter;
        Optional<String> left = condition(or.left(), contract);
        Optional<String> right = condition(or.right(), contract);
        yield left.isPresent() && right.isPresent()
            ? Optional.of("(" + left.get() + " OR " + right.get() + ")")
            : Optional.empty();
      }
      case FALSE -> Optional.of("false");
      // A negation of a weakened term would be stronger than the filter: left out.
      default ->
          filter instanceof UnboundPredicate<?> predicate
              ? predicate(predicate, contract)
              : Optional.empty();
    };
  }

  private static Optional<String> predicate(UnboundPredicate<?> predicate, TableContract contract) {
    String name = predicate.ref().name();
    if (!contract.columnNames().contains(name)) {
      return Optional.empty();
    }
    ColumnType type = contract.column(name).type();
    String column = SqlText.identifier(name);
    String operator =
        switch (predicate.op()) {
          case LT -> " < ";
          case LT_EQ -> " <= ";
          case GT -> " > ";
          case GT_EQ -> " >= ";
          case EQ -> " = ";
          case IN -> " IN ";
          default -> null;
        };
    if (operator == null) {
      return Optional.empty();
    }
    List<String> values = new ArrayList<>();
    for (Literal<?> literal : predicate.literals()) {
      Optional<String> value = value(literal.value(), type);
      if (value.isEmpty()) {
        return Optional.empty();
      }
      values.add(value.get());
    }
    if (predicate.op() == org.apache.iceberg.expressions.Expression.Operation.IN) {
      return Optional.of(column + operator + "(" + String.join(", ", values) + ")");
    }
    return values.size() == 1 ? Optional.of(column + operator + values.get(0)) : Optional.empty();
  }

  /** A literal of the column's type, or empty for a type the filter does not render. */
  private static Optional<String> value(Object value, ColumnType type) {
    return switch (type.kind()) {
      case VARCHAR -> Optional.of(SqlText.literal(value.toString()));
      case INTEGER, BIGINT ->
          value instanceof Number number
              ? Optional.of(Long.toString(number.longValue()))
              : Optional.empty();
      case TIMESTAMPTZ -> value instanceof Long micros ? timestamp(micros) : Optional.empty();
      default -> Optional.empty();
    };
  }

  private static Optional<String> timestamp(long micros) {
    Instant instant =
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    if (instant.isBefore(Instant.parse("0001-01-01T00:00:00Z"))
        || !instant.isBefore(Instant.parse("9999-12-31T00:00:00Z"))) {
      return Optional.empty();
    }
    return Optional.of(
        "CAST(" + SqlText.literal(TIMESTAMP.format(instant) + "+00") + " AS TIMESTAMPTZ)");
  }
}

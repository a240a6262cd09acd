package dev.timelake.testkit;

import static java.util.Objects.requireNonNull;

import dev.timelake.testkit.ConformanceOutcome.Done;
import dev.timelake.testkit.ConformanceOutcome.Failed;
import dev.timelake.testkit.ConformanceOutcome.Rows;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One statement of the conformance script (without its closing semicolon), the line it starts on
 * and the expectation lines above it.
 */
public record ConformanceStep(int line, String sql, List<Expectation> expectations) {
  private static final Set<String> ROW_KEYS = Set.of("columns", "row", "no rows", "more rows");
  private static final Pattern TRAILING_NUMBER = Pattern.compile("(\\d+)$");

  public ConformanceStep {
    requireNonNull(sql, "sql is null");
    expectations = List.copyOf(expectations);
  }

  /**
   * One {@code -- [qualifiers] key: value} line: the paths it is for (empty: every path without a
   * line of the same kind of its own), the key and the value.
   */
  public record Expectation(List<String> qualifiers, String key, String value) {
    public Expectation {
      qualifiers = List.copyOf(qualifiers);
      requireNonNull(key, "key is null");
      requireNonNull(value, "value is null");
    }

    /** Expectations of rows (columns, row, no rows, more rows) override each other as one kind. */
    String kind() {
      return ROW_KEYS.contains(key) ? "rows" : key;
    }

    boolean isFor(ConformancePath path) {
      return qualifiers.stream().anyMatch(path::isNamedBy);
    }
  }

  /** Whether {@code path} should give rows (not a refusal, message, tag or update count). */
  public boolean expectsRows(ConformancePath path) {
    return expected(path, "error").isEmpty() && !expected(path, "rows").isEmpty();
  }

  /** The mismatches between what {@code path} gave and what the script expects of it. */
  public List<String> mismatches(ConformancePath path, ConformanceOutcome outcome) {
    List<String> problems = new ArrayList<>();
    List<Expectation> error = expected(path, "error");
    if (!error.isEmpty()) {
      checkFailure(path, outcome, error.get(0).value(), problems);
    } else if (!expected(path, "rows").isEmpty()) {
      checkRows(outcome, expected(path, "rows"), problems);
    } else {
      checkDone(path, outcome, problems);
    }
    return problems;
  }

  /**
   * The expectations of {@code kind} for {@code path}: its own lines, else the unqualified ones.
   */
  private List<Expectation> expected(ConformancePath path, String kind) {
    List<Expectation> own = new ArrayList<>();
    List<Expectation> shared = new ArrayList<>();
    for (Expectation expectation : expectations) {
      if (expectation.kind().equals(kind)) {
        if (expectation.isFor(path)) {
          own.add(expectation);
        } else if (expectation.qualifiers().isEmpty()) {
          shared.add(expectation);
        }
      }
    }
    return own.isEmpty() ? shared : own;
  }

  private void checkFailure(
      ConformancePath path, ConformanceOutcome outcome, String prefix, List<String> problems) {
    if (!(outcome instanceof Failed failed)) {
      problems.add("expected an error starting '" + prefix + "', got " + outcome);
      return;
    }
    if (!failed.message().startsWith(prefix)) {
      problems.add("expected an error starting '" + prefix + "', got " + outcome);
    }
    List<Expectation> state = expected(path, "sqlstate");
    if (!state.isEmpty()
        && failed.sqlState() != null
        && !failed.sqlState().equals(state.get(0).value())) {
      problems.add(
          String.format(
              "expected SQLSTATE %s, got %s (%s)",
              state.get(0).value(), failed.sqlState(), outcome));
    }
  }

  private static void checkRows(
      ConformanceOutcome outcome, List<Expectation> expected, List<String> problems) {
    if (!(outcome instanceof Rows rows)) {
      problems.add("expected rows, got " + outcome);
      return;
    }
    List<String> wanted = new ArrayList<>();
    boolean more = false;
    for (Expectation expectation : expected) {
      switch (expectation.key()) {
        case "columns" -> {
          if (!expectation.value().equals(String.join("|", rows.columns()))) {
            problems.add(
                "expected columns "
                    + expectation.value()
                    + ", got "
                    + String.join("|", rows.columns()));
          }
        }
        case "row" -> wanted.add(expectation.value());
        case "more rows" -> more = true;
        default -> {} // no rows: nothing wanted
      }
    }
    List<String> got =
        more ? rows.rows().subList(0, Math.min(wanted.size(), rows.rows().size())) : rows.rows();
    if (!got.equals(wanted)) {
      problems.add("expected rows " + wanted + (more ? " first" : "") + ", got " + rows.rows());
    }
  }

  private void checkDone(ConformancePath path, ConformanceOutcome outcome, List<String> problems) {
    String wanted = doneText(path);
    if (wanted == null) {
      problems.add("the script gives no '" + path.doneKey() + ":' for " + path.label());
    } else if (!(outcome instanceof Done done) || !done.text().equals(wanted)) {
      problems.add("expected done '" + wanted + "', got " + outcome);
    }
  }

  /**
   * What a statement without rows should give on {@code path}: its line of the path's key; for an
   * update count without one, the number a PostgreSQL client reads from the tag (INSERT 0 3: 3), 0
   * when the tag has none.
   */
  private String doneText(ConformancePath path) {
    List<Expectation> own = expected(path, path.doneKey());
    if (!own.isEmpty()) {
      return own.get(0).value();
    }
    if (path.doneKey().equals("count")) {
      List<Expectation> tag = expected(path, "tag");
      if (!tag.isEmpty()) {
        Matcher number = TRAILING_NUMBER.matcher(tag.get(0).value());
        return number.find() ? number.group(1) : "0";
      }
    }
    return null;
  }
}

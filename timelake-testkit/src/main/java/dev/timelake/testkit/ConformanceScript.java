package dev.timelake.testkit;

import dev.timelake.testkit.ConformanceStep.Expectation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the conformance script (docs/conformance.sql): statements as users write them, each ending
 * with {@code ;} at the end of a line, each preceded by comment lines that say what it gives. Other
 * comment lines are prose. See the script's head for its keys.
 */
public final class ConformanceScript {
  private static final Pattern EXPECTATION =
      Pattern.compile(
          "--\\s*((?:[a-z]+\\s+)*?)(message|tag|count|columns|row|error|sqlstate):\\s?(.*)");
  private static final Pattern BARE =
      Pattern.compile("--\\s*((?:[a-z]+\\s+)*?)(no rows|more rows)\\s*");

  private ConformanceScript() {}

  /** The script at {@code file}, found from the working directory or its parent. */
  public static List<ConformanceStep> read(Path file) throws IOException {
    Path found = Files.exists(file) ? file : Path.of("..").resolve(file);
    return parse(Files.readAllLines(found, StandardCharsets.UTF_8));
  }

  /** The steps of the script's {@code lines}. */
  public static List<ConformanceStep> parse(List<String> lines) {
    List<ConformanceStep> steps = new ArrayList<>();
    List<Expectation> expectations = new ArrayList<>();
    StringBuilder statement = new StringBuilder();
    int start = 0;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (statement.isEmpty()) {
        if (line.isEmpty()) {
          continue;
        }
        if (line.startsWith("--")) {
          expectation(line).ifPresent(expectations::add);
          continue;
        }
        start = i + 1;
      }
      statement.append(statement.isEmpty() ? "" : "\n").append(lines.get(i).stripTrailing());
      if (line.endsWith(";")) {
        String sql = statement.substring(0, statement.length() - 1).strip();
        steps.add(new ConformanceStep(start, sql, expectations));
        expectations = new ArrayList<>();
        statement.setLength(0);
      }
    }
    if (!statement.isEmpty()) {
      throw new IllegalArgumentException("The statement at line " + start + " does not end with ;");
    }
    return steps;
  }

  /**
   * Every mismatch between {@code outcomes}, what {@code path} gave for each of {@code steps} in
   * order, and the script: one line each, naming the statement by its line and first line.
   */
  public static List<String> mismatches(
      ConformancePath path, List<ConformanceStep> steps, List<ConformanceOutcome> outcomes) {
    List<String> report = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      ConformanceStep step = steps.get(i);
      ConformanceOutcome outcome =
          i < outcomes.size() ? outcomes.get(i) : new ConformanceOutcome.Done("(not run)");
      for (String problem : step.mismatches(path, outcome)) {
        report.add(
            path.label()
                + ", line "
                + step.line()
                + " ("
                + step.sql().lines().findFirst().orElse("")
                + "): "
                + problem);
      }
    }
    return report;
  }

  /** The expectation a comment line states, if it is one (qualifiers all name paths). */
  private static java.util.Optional<Expectation> expectation(String line) {
    Matcher keyed = EXPECTATION.matcher(line);
    if (keyed.matches() && qualifiers(keyed.group(1)) != null) {
      return java.util.Optional.of(
          new Expectation(qualifiers(keyed.group(1)), keyed.group(2), keyed.group(3).strip()));
    }
    Matcher bare = BARE.matcher(line);
    if (bare.matches() && qualifiers(bare.group(1)) != null) {
      return java.util.Optional.of(new Expectation(qualifiers(bare.group(1)), bare.group(2), ""));
    }
    return java.util.Optional.empty();
  }

  /** The qualifier words, or null when one names no path (then the line is prose). */
  private static List<String> qualifiers(String words) {
    List<String> list = words.isBlank() ? List.of() : Arrays.asList(words.strip().split("\\s+"));
    return list.stream().allMatch(ConformancePath::isQualifier) ? list : null;
  }
}

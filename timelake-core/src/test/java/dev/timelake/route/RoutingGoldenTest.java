package dev.timelake.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TableName;
import dev.timelake.engine.ConstantEvaluator;
import dev.timelake.engine.Engine;
import dev.timelake.engine.EngineConnection;
import dev.timelake.engine.StatementParser;
import dev.timelake.rollup.RollupDefinition;
import dev.timelake.rollup.RollupDefinitions;
import dev.timelake.rollup.RollupStatement;
import dev.timelake.rollup.UnsupportedPart;
import dev.timelake.table.TableContract;
import dev.timelake.time.IntervalSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import net.sf.jsqlparser.statement.select.PlainSelect;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routing decisions as golden text files under {@code src/test/resources/routing}: a raw table, the
 * rollups present (each a CREATE statement with the metadata routing reads: rows, where its usable
 * buckets start, the buckets changed since its refresh, or why it is unusable), then paired cases —
 * "routed" or "not routed", a statement, a {@code ----} line and the decision's explanation, line
 * for line, up to a blank line. No lake: statements are analyzed and planned from these values
 * alone, with a bare DuckDB to evaluate constants. Run with {@code -Dtimelake.golden.update=true}
 * to write each case's actual explanation into its file (then review the diff).
 *
 * <pre>
 * table iot.r (device VARCHAR NOT NULL, time TIMESTAMPTZ NOT NULL, value DOUBLE) time time key device rows 86400
 * data 2026-01-01T00:00:00Z 2026-01-02T00:00:00Z
 * rollup iot.r_1h rows 2400 changed 2026-01-01T23:00:00Z 2026-01-02T00:00:00Z
 * CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(…) AS bucket, … GROUP BY …
 *
 * routed
 * SELECT …
 * ----
 * routed to rollup iot.r_1h
 * …
 * </pre>
 */
class RoutingGoldenTest {
  @TempDir static Path temp;
  private static Engine engine;
  private static EngineConnection connection;

  @BeforeAll
  static void startEngine() {
    engine = Engine.start(temp.toString());
    connection = engine.connect();
  }

  @AfterAll
  static void stopEngine() {
    connection.close();
    engine.close();
  }

  @TestFactory
  Stream<DynamicTest> routingDecisionsMatchTheGoldenFiles() throws IOException, URISyntaxException {
    Path folder = Path.of(RoutingGoldenTest.class.getResource("/routing").toURI());
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".test")).sorted().toList()) {
        tests.addAll(new GoldenFile(file).tests());
      }
    }
    assertThat(tests).isNotEmpty();
    return tests.stream();
  }

  /** What a case is decided on. */
  private record Setting(TableContract raw, IntervalSet extent, List<RouteCandidate> candidates) {}

  /** One golden file: its table and rollups, then its cases. */
  private static final class GoldenFile {
    private final Path file;
    private final List<String> lines;
    private TableContract raw;
    private long rawRows;
    private IntervalSet extent = IntervalSet.all();
    private final List<RouteCandidate> candidates = new ArrayList<>();

    GoldenFile(Path file) {
      this.file = file;
      try {
        this.lines = Files.readAllLines(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    List<DynamicTest> tests() {
      List<DynamicTest> tests = new ArrayList<>();
      List<String> updated = new ArrayList<>();
      int i = 0;
      while (i < lines.size()) {
        String line = lines.get(i).strip();
        if (line.isEmpty() || line.startsWith("#")) {
          updated.add(lines.get(i));
          i++;
        } else if (line.startsWith("table ")) {
          raw = table(line);
          candidates.clear();
          updated.add(lines.get(i));
          i++;
        } else if (line.startsWith("data ")) {
          String[] parts = line.split("\\s+");
          extent = IntervalSet.of(micros(parts[1]), micros(parts[2]));
          updated.add(lines.get(i));
          i++;
        } else if (line.startsWith("rollup ")) {
          candidates.add(candidate(line, lines.get(i + 1).strip()));
          updated.addAll(lines.subList(i, i + 2));
          i += 2;
        } else if (line.equals("routed") || line.equals("not routed")) {
          int separator = indexOf("----", i + 1);
          String statement = String.join(" ", lines.subList(i + 1, separator)).strip();
          int end = separator + 1;
          while (end < lines.size() && !lines.get(end).isBlank()) {
            end++;
          }
          List<String> expected = List.copyOf(lines.subList(separator + 1, end));
          boolean routed = line.equals("routed");
          String name = file.getFileName() + ":" + (i + 1) + " " + line;
          Setting setting = new Setting(raw, extent, List.copyOf(candidates));
          tests.add(
              DynamicTest.dynamicTest(
                  name, () -> check(setting, statement, routed, expected, name)));
          updated.addAll(lines.subList(i, separator + 1));
          if (Boolean.getBoolean("timelake.golden.update")) {
            updated.addAll(decide(setting, statement).explanation());
          } else {
            updated.addAll(expected);
          }
          i = end;
        } else {
          throw new IllegalArgumentException(file + ":" + (i + 1) + ": cannot read " + line);
        }
      }
      if (Boolean.getBoolean("timelake.golden.update")) {
        write(updated);
      }
      return tests;
    }

    private void write(List<String> updated) {
      try {
        Files.write(file, updated);
        Path source = Path.of("src/test/resources/routing").resolve(file.getFileName());
        if (Files.exists(source)) {
          Files.write(source, updated);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private int indexOf(String marker, int from) {
      for (int j = from; j < lines.size(); j++) {
        if (lines.get(j).strip().equals(marker)) {
          return j;
        }
      }
      throw new IllegalArgumentException(file + ": no " + marker + " after line " + from);
    }

    /** {@code table ns.t (col TYPE [NOT NULL], …) time COL key K[,K] rows N}. */
    private TableContract table(String line) {
      int open = line.indexOf('(');
      int close = line.lastIndexOf(')');
      TableName name = TableName.parse(line.substring("table ".length(), open).strip());
      List<Column> columns = new ArrayList<>();
      for (String column : line.substring(open + 1, close).split(",")) {
        String[] parts = column.strip().split("\\s+", 2);
        boolean required = parts[1].toUpperCase(Locale.ROOT).endsWith("NOT NULL");
        ColumnType type = ColumnType.parse(parts[1].replaceAll("(?i)\\s*NOT NULL$", ""));
        columns.add(required ? Column.required(parts[0], type) : Column.nullable(parts[0], type));
      }
      String[] rest = line.substring(close + 1).strip().split("\\s+");
      rawRows = Long.parseLong(rest[5]);
      return new TableContract(
          name,
          columns,
          Optional.of(rest[1]),
          List.of(rest[3].split(",")),
          Chunk.DAY,
          Optional.empty(),
          Map.of("dedup", "true"));
    }

    /** {@code rollup NAME rows N [from ISO] [changed ISO ISO]… [unusable WORDS…]}, then CREATE. */
    private RouteCandidate candidate(String line, String create) {
      String[] parts = line.split("\\s+");
      long rows = Long.parseLong(parts[3]);
      long from = extent.span().start();
      IntervalSet changed = IntervalSet.empty();
      Optional<String> unusable = Optional.empty();
      for (int p = 4; p < parts.length; p++) {
        switch (parts[p]) {
          case "from" -> from = micros(parts[++p]);
          case "changed" -> {
            changed = changed.union(IntervalSet.of(micros(parts[p + 1]), micros(parts[p + 2])));
            p += 2;
          }
          case "unusable" -> {
            unusable = Optional.of(String.join(" ", List.of(parts).subList(p + 1, parts.length)));
            p = parts.length;
          }
          default -> throw new IllegalArgumentException(file + ": cannot read " + parts[p]);
        }
      }
      TableContract table = raw;
      RollupDefinition definition =
          RollupDefinitions.define(
              RollupStatement.parse(create).orElseThrow(),
              name -> table,
              new ConstantEvaluator(connection));
      IntervalSet usable =
          IntervalSet.of(definition.grid().ceil(from), Long.MAX_VALUE)
              .subtract(changed.alignOutward(definition.grid()));
      return new RouteCandidate(
          definition.name(),
          definition.keys(),
          definition.bucketColumn(),
          definition.grid(),
          definition.aggregates(),
          rows,
          (double) rawRows / rows,
          usable,
          1,
          unusable);
    }
  }

  private static RouteDecision decide(Setting setting, String statement) {
    try {
      PlainSelect select = (PlainSelect) StatementParser.parse(statement);
      QueryShape shape =
          SelectAnalyzer.analyze(
                  select,
                  setting.raw(),
                  new ConstantEvaluator(connection),
                  connection.aggregateFunctions(),
                  java.time.ZoneOffset.UTC)
              .shape();
      return RoutePlanner.plan(
          shape, new RawFacts(setting.raw(), 1, setting.extent()), setting.candidates());
    } catch (UnsupportedPart e) {
      return RouteDecision.notRouted(e.getMessage(), List.of());
    } catch (net.sf.jsqlparser.JSQLParserException e) {
      throw new IllegalArgumentException("cannot parse " + statement, e);
    }
  }

  private static void check(
      Setting setting, String statement, boolean routed, List<String> expected, String name) {
    RouteDecision decision = decide(setting, statement);
    if (decision.isRouted() != routed) {
      fail(
          name
              + ": expected "
              + (routed ? "routed" : "not routed")
              + ", got\n"
              + String.join("\n", decision.explanation()));
    }
    assertThat(decision.explanation()).as(name).containsExactlyElementsOf(expected);
  }

  private static long micros(String instant) {
    if (instant.equals("+inf")) {
      return Long.MAX_VALUE;
    }
    if (instant.equals("-inf")) {
      return Long.MIN_VALUE;
    }
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse(instant));
  }
}

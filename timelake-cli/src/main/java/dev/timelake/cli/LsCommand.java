package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Lists tables with their kind. */
@Command(
    name = "ls",
    description = "Lists tables (all, or of one namespace) with their kind.",
    footer = {"%nExamples:", "  timelake ls", "  timelake ls iot"})
final class LsCommand extends LakeCommand {
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "NAMESPACE",
      description = "Only tables of this namespace.")
  private String namespace;

  @Override
  int run() {
    List<String[]> lines = new ArrayList<>();
    try (Lake lake = main.openLake()) {
      for (TableName name : lake.tables()) {
        if (namespace == null || name.namespace().equals(namespace.toLowerCase(Locale.ROOT))) {
          String kind =
              lake.findTable(name)
                  .map(
                      table ->
                          table
                              .rollupOf()
                              .map(raw -> "rollup of " + raw)
                              .orElse(table.timeColumn().isPresent() ? "time-series" : "plain"))
                  .orElse("dropped");
          lines.add(new String[] {name.toString(), kind});
        }
      }
    }
    int width = lines.stream().mapToInt(line -> line[0].length()).max().orElse(0);
    for (String[] line : lines) {
      out().println(line[0] + " ".repeat(width - line[0].length() + 2) + line[1]);
    }
    return 0;
  }
}

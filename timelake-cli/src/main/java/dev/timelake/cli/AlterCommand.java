package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.Table;
import dev.timelake.table.Setting;
import dev.timelake.table.Settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Changes table-level settings in one commit. */
@Command(
    name = "alter",
    sortOptions = false,
    description = {
      "Changes table settings.",
      "Sets or resets table-level settings in one commit; see `timelake settings`."
    },
    footer = {
      "%nExample:",
      "  timelake alter iot.readings --set read-dedup-strategy=keys-first \\",
      "      --reset compression-codec"
    })
final class AlterCommand extends LakeCommand {
  @Spec private CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: namespace.table.")
  private String table;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "A setting to change (repeatable).")
  private Map<String, String> set = new LinkedHashMap<>();

  @Option(
      names = "--reset",
      paramLabel = "KEY",
      description = "A setting to reset to its default (repeatable).")
  private List<String> reset = new ArrayList<>();

  @Override
  int run() {
    if (set.isEmpty() && reset.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "Nothing to alter: give --set or --reset");
    }
    Map<String, String> changes = new LinkedHashMap<>(set);
    reset.forEach(key -> changes.put(key, ""));
    try (Lake lake = main.openLake()) {
      Table altered = lake.table(table).alter(changes);
      out().println("Altered table " + altered.name());
      for (String key : changes.keySet()) {
        Setting setting = Settings.require(key);
        String value = altered.settings().get(setting.name());
        out()
            .println(
                "  "
                    + setting.name()
                    + " = "
                    + (value != null
                        ? value
                        : setting.defaultValue().orElse("(unset)") + " (default)"));
      }
    }
    return 0;
  }
}

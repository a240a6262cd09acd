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

/** Changes table-level settings in one commit, or adds columns. */
@Command(
    name = "alter",
    sortOptions = false,
    description = {
      "Changes table settings, or adds columns.",
      "Sets or resets table-level settings in one commit (see `timelake settings`), or adds"
          + " nullable columns in one commit; rows written before read them as NULL."
    },
    footer = {
      "%nExample:",
      "  timelake alter iot.readings --set read-dedup-strategy=keys-first \\",
      "      --reset compression-codec",
      "  timelake alter iot.readings --add-column \"quality INTEGER\""
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

  @Option(
      names = "--add-column",
      paramLabel = "\"NAME TYPE\"",
      description = "A nullable column to add, e.g. \"quality INTEGER\" (repeatable).")
  private List<String> addColumns = new ArrayList<>();

  @Override
  int run() {
    if (!addColumns.isEmpty()) {
      if (!set.isEmpty() || !reset.isEmpty()) {
        throw new ParameterException(
            spec.commandLine(), "Add columns and change settings in two commands");
      }
      return addColumns();
    }
    if (set.isEmpty() && reset.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "Nothing to alter: give --set, --reset or --add-column");
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

  /** Adds the columns through SQL, so that the one parser of column types reads them. */
  private int addColumns() {
    try (Lake lake = main.openLake();
        dev.timelake.Session session = lake.newSession()) {
      dev.timelake.TableName name = lake.table(table).name();
      StringBuilder sql =
          new StringBuilder("ALTER TABLE ")
              .append(dev.timelake.engine.SqlText.qualified(name.namespace(), name.name()));
      for (int i = 0; i < addColumns.size(); i++) {
        String[] parts = addColumns.get(i).strip().split("\\s+", 2);
        if (parts.length < 2) {
          throw new ParameterException(
              spec.commandLine(),
              "--add-column '"
                  + addColumns.get(i)
                  + "': give a name and a type, e.g. \"quality"
                  + " INTEGER\"");
        }
        sql.append(i == 0 ? " " : ", ")
            .append("ADD COLUMN ")
            .append(dev.timelake.engine.SqlText.identifier(parts[0]))
            .append(' ')
            .append(
                dev.timelake.ColumnType.parse(parts[1])
                    .sql()); // parsed, then printed: no user text in SQL
      }
      try (dev.timelake.QueryResult result = session.sql(sql.toString())) {
        out().println(result.message());
      }
    }
    return 0;
  }
}

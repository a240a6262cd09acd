package dev.timelake.cli;

import dev.timelake.table.Setting;
import dev.timelake.table.Settings;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Prints the settings registry; the Markdown format generates docs/settings.md. */
@Command(
    name = "settings",
    description = {
      "Lists every Timelake setting.",
      "For each: accepted values, default, where it may be given (create, table, session, call;"
          + " managed ones only by Timelake), the version that added it.",
      "Tables store a setting as the property timelake.<name>; SQL spells it"
          + " SET timelake.<name_with_underscores> = …"
    },
    footer = {
      "%nExamples:",
      "  timelake settings",
      "  timelake settings --format markdown > docs/settings.md"
    })
final class SettingsCommand extends LakeCommand {
  static final List<String> COLUMNS =
      List.of("name", "values", "default", "levels", "since", "description");

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "table (default), csv, json (JSON Lines) or markdown.")
  private OutputFormat format = OutputFormat.TABLE;

  @Override
  int run() {
    RowPrinter printer =
        format == OutputFormat.TABLE ? TablePrinter.forReport(out()) : format.printer(out());
    printer.header(COLUMNS);
    for (Setting setting : Settings.all()) {
      printer.row(
          List.of(
              format == OutputFormat.MARKDOWN ? "`" + setting.name() + "`" : setting.name(),
              setting.expected(),
              setting.defaultValue().orElse(""),
              setting.levelNames(),
              setting.since(),
              setting.description()));
    }
    printer.finish();
    return 0;
  }
}

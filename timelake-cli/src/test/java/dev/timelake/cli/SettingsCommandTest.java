package dev.timelake.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.cli.CliRunner.Run;
import dev.timelake.table.Setting;
import dev.timelake.table.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsCommandTest {
  @Test
  void printsTheRegistryAsAMarkdownTable() {
    Run run = CliRunner.runWithoutWarehouse("", Map.of(), "settings", "--format", "markdown");

    assertThat(run.status()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.get(0))
        .isEqualTo("| name | values | default | levels | since | description |");
    assertThat(lines.get(1)).isEqualTo("|---|---|---|---|---|---|");
    List<Setting> settings = Settings.all();
    assertThat(lines).hasSize(settings.size() + 2);
    for (int i = 0; i < settings.size(); i++) {
      Setting setting = settings.get(i);
      assertThat(lines.get(i + 2))
          .isEqualTo(
              "| `"
                  + setting.name()
                  + "` | "
                  + setting.expected()
                  + " | "
                  + setting.defaultValue().orElse("")
                  + " | "
                  + setting.levelNames()
                  + " | "
                  + setting.since()
                  + " | "
                  + setting.description().replace("|", "\\|")
                  + " |");
    }
  }

  @Test
  void settingsDocumentationIsGeneratedFromTheRegistry() throws java.io.IOException {
    Run run = CliRunner.runWithoutWarehouse("", Map.of(), "settings", "--format", "markdown");
    java.nio.file.Path docs = java.nio.file.Path.of("..", "docs", "settings.md");

    String documented = java.nio.file.Files.readString(docs);
    assertThat(documented)
        .as("docs/settings.md is stale: regenerate it with ./timelake settings --format markdown")
        .endsWith(run.out());
  }

  @Test
  void printsOneJsonObjectPerSetting() {
    Run run = CliRunner.runWithoutWarehouse("", Map.of(), "settings", "--format", "json");

    assertThat(run.status()).as(run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(Settings.all().size());
    Setting first = Settings.all().get(0);
    assertThat(lines.get(0))
        .startsWith("{\"name\":\"" + first.name() + "\",\"values\":\"" + first.expected() + "\"");
  }

  @Test
  void rejectsAnUnknownFormat() {
    Run run = CliRunner.runWithoutWarehouse("", Map.of(), "settings", "--format", "xml");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "Invalid value for option '--format': 'xml' (expected table, csv, json or"
                + " markdown)\n");
  }
}

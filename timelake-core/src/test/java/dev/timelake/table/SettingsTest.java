package dev.timelake.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.timelake.ErrorCode;
import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.ValidationException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "read-dedup",
        "read_dedup",
        "timelake.read-dedup",
        "timelake.read_dedup",
        "TIMELAKE.READ_DEDUP",
        "  Read-Dedup "
      })
  void findsSettingByEverySpelling(String spelling) {
    assertThat(Settings.find(spelling)).containsSame(Settings.READ_DEDUP);
  }

  @Test
  void doesNotConfuseSettingsSharingAPrefix() {
    assertThat(Settings.find("read_dedup_strategy")).containsSame(Settings.READ_DEDUP_STRATEGY);
    assertThat(Settings.find("read")).isEmpty();
    assertThat(Settings.find("timelake.")).isEmpty();
  }

  @Test
  void rejectsUnknownSettingListingTheKnownOnes() {
    List<String> userSettable =
        Settings.all().stream().filter(s -> !s.isManaged()).map(Setting::name).toList();

    assertThatThrownBy(() -> Settings.require("timelake.read_dedupe"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Unknown setting 'timelake.read_dedupe' (known settings: %s)",
            String.join(", ", userSettable));
    assertThat(userSettable)
        .contains("read-dedup", "read-dedup-strategy", "chunk")
        .doesNotContain("format-version", "ingest-time-column");
  }

  @Test
  void rejectsBooleanValueThatIsNotABoolean() {
    assertThatThrownBy(() -> Settings.READ_DEDUP.canonical("maybe"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid setting 'read-dedup': 'maybe' (expected true or false)");
  }

  @Test
  void rejectsUnknownChoiceListingTheChoices() {
    assertThatThrownBy(() -> Settings.READ_DEDUP_STRATEGY.canonical("fast"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid setting 'read-dedup-strategy': 'fast' (expected merge or keys-first)");
  }

  @Test
  void rejectsBadChunkInTheSettingGrammar() {
    assertThatThrownBy(() -> Settings.CHUNK.canonical("fortnight"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid setting 'chunk': 'fortnight' (expected hour, day or month)");
  }

  @Test
  void rejectsNegativeAndNonNumericIntegers() {
    assertThatThrownBy(() -> Settings.ROW_GROUP_ROWS.canonical("-5"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid setting 'row-group-rows': '-5' (expected a whole number >= 0)");
    assertThatThrownBy(() -> Settings.ROW_GROUP_ROWS.canonical("lots"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Invalid setting 'row-group-rows': 'lots' (expected a whole number >= 0)");
  }

  @Test
  void returnsCanonicalSpellingOfAcceptedValues() {
    assertThat(Settings.READ_DEDUP.canonical("ON")).isEqualTo("true");
    assertThat(Settings.READ_DEDUP.canonical(" no ")).isEqualTo("false");
    assertThat(Settings.READ_DEDUP_STRATEGY.canonical("Keys-First")).isEqualTo("keys-first");
    assertThat(Settings.CHUNK.canonical("1 hour")).isEqualTo("hour");
    assertThat(Settings.CHUNK.canonical("Monthly")).isEqualTo("month");
    assertThat(Settings.ROW_GROUP_ROWS.canonical("1_000")).isEqualTo("1000");
    assertThat(Settings.SERIES_KEY.canonical(" a , b,, c ")).isEqualTo("a,b,c");
  }

  @Test
  void rejectsSessionValueOfCreateOnlySetting() {
    assertThatThrownBy(() -> Settings.check("timelake.chunk", "hour", Level.SESSION))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Setting 'chunk' cannot be set at session level (allowed: create)");
    assertThatThrownBy(() -> Settings.check("format_version", "3", Level.TABLE))
        .isInstanceOf(ValidationException.class)
        .hasMessage("Setting 'format-version' cannot be set at table level (allowed: managed)");
  }

  @Test
  void checksValueAfterLevel() {
    Map.Entry<Setting, String> checked =
        Settings.check("TIMELAKE.READ_DEDUP_STRATEGY", "KEYS-FIRST", Level.SESSION);

    assertThat(checked.getKey()).isSameAs(Settings.READ_DEDUP_STRATEGY);
    assertThat(checked.getValue()).isEqualTo("keys-first");
    assertThatThrownBy(() -> Settings.check("read_dedup", "maybe", Level.SESSION))
        .hasMessage("Invalid setting 'read-dedup': 'maybe' (expected true or false)");
  }

  @Test
  void sessionRejectsCreateOnlySettingsUnknownNamesAndBadValues(@TempDir Path warehouse) {
    try (Lake lake = Lake.open(warehouse);
        Session session = lake.newSession()) {
      assertThatThrownBy(() -> session.sql("SET timelake.time_column = 'ts'"))
          .isInstanceOf(ValidationException.class)
          .hasMessage("Setting 'time-column' cannot be set at session level (allowed: create)");
      assertThatThrownBy(() -> session.sql("SET timelake.colour = 'red'"))
          .isInstanceOf(ValidationException.class)
          .hasMessageStartingWith("Unknown setting 'timelake.colour' (known settings: ");
      assertThatThrownBy(() -> session.set("timelake.read_dedup_strategy", "fast"))
          .isInstanceOf(ValidationException.class)
          .hasMessage(
              "Invalid setting 'read-dedup-strategy': 'fast' (expected merge or keys-first)");
      assertThat(session.settings()).isEmpty();

      assertThat(session.sql("SET timelake.read_dedup = OFF").message())
          .isEqualTo("SET timelake.read_dedup = false");
      assertThat(session.settings()).containsExactly(Map.entry("read-dedup", "false"));
    }
  }

  @Test
  void declaresEverySettingOnceWithValidDefaultsAndDescriptions() {
    List<Setting> all = Settings.all();

    assertThat(all).extracting(Setting::name).isSorted().doesNotHaveDuplicates();
    for (Setting setting : all) {
      assertThat(setting.name()).as(setting.name()).matches("[a-z]+(-[a-z]+)*");
      assertThat(setting.description()).as(setting.name()).isNotBlank().endsWith(".");
      assertThat(Settings.find(setting.sqlName())).as(setting.name()).containsSame(setting);
      assertThat(Settings.find(setting.propertyKey())).as(setting.name()).containsSame(setting);
      setting
          .defaultValue()
          .ifPresent(
              value -> assertThat(setting.canonical(value)).as(setting.name()).isEqualTo(value));
    }
  }

  @Test
  void namesTheSqlAndPropertySpellings() {
    assertThat(Settings.READ_DEDUP_STRATEGY.sqlName()).isEqualTo("timelake.read_dedup_strategy");
    assertThat(Settings.READ_DEDUP_STRATEGY.propertyKey())
        .isEqualTo("timelake.read-dedup-strategy");
    assertThat(Settings.ROW_GROUP_ROWS.levelNames()).isEqualTo("create, table, call");
  }

  @Test
  void reportsValidationErrorCode() {
    TimelakeException error =
        catchThrowableOfType(TimelakeException.class, () -> Settings.require("nope"));

    assertThat(error.code()).isEqualTo(ErrorCode.VALIDATION);
    assertThat(error).hasMessageStartingWith("Unknown setting 'nope' (known settings: ");
  }

  @Test
  void rejectsBadDurationValueWithWhatIsAllowed() {
    Setting retention =
        new Setting(
            "retention",
            SettingKind.DURATION,
            Optional.of("90d"),
            Set.of(Level.TABLE),
            List.of(),
            "0.1",
            "How long rows are kept.");

    assertThat(retention.canonical("2160 hours")).isEqualTo("90d");
    assertThatThrownBy(() -> retention.canonical("ninety days"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Invalid setting 'retention': 'ninety days' (expected a duration such as 90d, 12h,"
                + " 30m, 45s, 2w, 1y)");
    assertThatThrownBy(() -> retention.canonical("3 fortnights"))
        .isInstanceOf(ValidationException.class)
        .hasMessage(
            "Invalid setting 'retention': '3 fortnights' (unknown unit 'fortnights', expected s,"
                + " m, h, d, w or y)");
  }
}

package dev.timelake.table;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One declared setting: its kebab-case name, value kind, default, the levels where it may be given,
 * the version that introduced it and a one-line description. Table properties store it as {@code
 * timelake.<name>}; SQL spells it {@code timelake.<name_with_underscores>}.
 */
public record Setting(
    String name,
    SettingKind kind,
    Optional<String> defaultValue,
    Set<Level> levels,
    List<String> choices,
    String since,
    String description) {

  public static final String PREFIX = "timelake.";

  public Setting {
    requireNonNull(name, "name is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(defaultValue, "defaultValue is null");
    levels = Set.copyOf(levels);
    choices = List.copyOf(choices);
    requireNonNull(since, "since is null");
    requireNonNull(description, "description is null");
  }

  /** The Iceberg table property key, e.g. {@code timelake.read-dedup}. */
  public String propertyKey() {
    return PREFIX + name;
  }

  /** The SQL spelling, e.g. {@code timelake.read_dedup}. */
  public String sqlName() {
    return PREFIX + name.replace('-', '_');
  }

  /** True when users may not set it: Timelake manages the value itself. */
  public boolean isManaged() {
    return levels.isEmpty();
  }

  /** True when the setting may be given at {@code level}. */
  public boolean allows(Level level) {
    return levels.contains(level);
  }

  /** Validates a value and returns its canonical spelling; the error says what is allowed. */
  public String canonical(String value) {
    requireNonNull(value, "value is null");
    try {
      return kind.canonical(value, choices);
    } catch (IllegalArgumentException e) {
      throw SettingKind.rejected(name, value, e.getMessage());
    }
  }

  /** Describes the accepted values, e.g. {@code merge or keys-first}. */
  public String expected() {
    return kind.expected(choices);
  }

  /** The levels as lower-case words, in declaration order, for listings. */
  public String levelNames() {
    if (levels.isEmpty()) {
      return "managed";
    }
    StringBuilder names = new StringBuilder();
    for (Level level : Level.values()) {
      if (levels.contains(level)) {
        names.append(names.length() == 0 ? "" : ", ").append(level.name().toLowerCase(Locale.ROOT));
      }
    }
    return names.toString();
  }
}

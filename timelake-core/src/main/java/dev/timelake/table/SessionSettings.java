package dev.timelake.table;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The settings a session has set. A setting resolves as the session's value if set, else the
 * table's, else the default.
 */
public final class SessionSettings {
  private final Map<String, String> values = new TreeMap<>();

  /** Validates and sets a session-level setting; returns its canonical value. */
  public String set(String name, String value) {
    Map.Entry<Setting, String> checked = Settings.check(name, value, Level.SESSION);
    values.put(checked.getKey().name(), checked.getValue());
    return checked.getValue();
  }

  /** Forgets the session's value of a setting. */
  public void reset(String name) {
    values.remove(Settings.require(name).name());
  }

  /** The values set in this session, by setting name. */
  public Map<String, String> values() {
    return Map.copyOf(values);
  }

  /** The value of {@code setting} for reading {@code table}: session, else table, else default. */
  public Optional<String> resolve(Setting setting, TableContract table) {
    return Optional.ofNullable(values.get(setting.name())).or(() -> table.setting(setting));
  }

  /** A boolean setting resolved for {@code table}. */
  public boolean isEnabled(Setting setting, TableContract table) {
    return Boolean.parseBoolean(resolve(setting, table).orElse("false"));
  }
}

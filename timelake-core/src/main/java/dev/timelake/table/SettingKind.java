package dev.timelake.table;

import dev.timelake.Chunk;
import dev.timelake.TimelakeException;
import java.util.List;
import java.util.Locale;

/**
 * The value domain of a setting; {@link #canonical} validates a value and returns its stored form.
 */
public enum SettingKind {
  BOOLEAN("true or false") {
    @Override
    String canonical(String value, List<String> allowed) {
      return switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "true", "on", "yes", "1" -> "true";
        case "false", "off", "no", "0" -> "false";
        default -> throw invalid(value);
      };
    }
  },
  INTEGER("a whole number >= 0") {
    @Override
    String canonical(String value, List<String> allowed) {
      try {
        long parsed = Long.parseLong(value.trim().replace("_", ""));
        if (parsed < 0) {
          throw invalid(value);
        }
        return Long.toString(parsed);
      } catch (NumberFormatException e) {
        throw invalid(value);
      }
    }
  },
  BYTES("a size such as 128MB, 512KiB or 1048576") {
    @Override
    String canonical(String value, List<String> allowed) {
      return Long.toString(ByteSizes.parse(value));
    }
  },
  DURATION("a duration such as 90d, 12h, 30m, 45s, 2w, 1y") {
    @Override
    String canonical(String value, List<String> allowed) {
      return Durations.format(Durations.parse(value));
    }
  },
  DURATION_OR_OFF("a duration such as 1m or 1h, or off") {
    @Override
    String canonical(String value, List<String> allowed) {
      String trimmed = value.trim().toLowerCase(Locale.ROOT);
      return trimmed.equals("off") ? "off" : DURATION.canonical(value, allowed);
    }
  },
  CHUNK("hour, day or month") {
    @Override
    String canonical(String value, List<String> allowed) {
      try {
        return Chunk.parse(value).label();
      } catch (TimelakeException e) {
        throw invalid(value);
      }
    }
  },
  CHOICE("one of the listed values") {
    @Override
    String canonical(String value, List<String> allowed) {
      String trimmed = value.trim().toLowerCase(Locale.ROOT);
      if (!allowed.contains(trimmed)) {
        throw new IllegalArgumentException("expected " + String.join(" or ", allowed));
      }
      return trimmed;
    }
  },
  COLUMN_LIST("a comma-separated list of column names") {
    @Override
    String canonical(String value, List<String> allowed) {
      return String.join(",", Settings.splitList(value));
    }
  },
  STRING("text") {
    @Override
    String canonical(String value, List<String> allowed) {
      return value.trim();
    }
  };

  private final String expected;

  SettingKind(String expected) {
    this.expected = expected;
  }

  /** Validates {@code value} and returns its canonical spelling, or throws with what is allowed. */
  abstract String canonical(String value, List<String> allowed);

  /** A phrase describing the accepted values, used in errors and generated docs. */
  public String expected(List<String> allowed) {
    return this == CHOICE ? String.join(" or ", allowed) : expected;
  }

  IllegalArgumentException invalid(String value) {
    return new IllegalArgumentException("expected " + expected);
  }

  static TimelakeException rejected(String name, String value, String reason) {
    return TimelakeException.validation("Invalid setting '%s': '%s' (%s)", name, value, reason);
  }
}

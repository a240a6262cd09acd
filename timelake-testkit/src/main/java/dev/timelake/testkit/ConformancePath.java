package dev.timelake.testkit;

import java.util.Locale;
import java.util.Set;

/**
 * A way a user sends SQL to Timelake, as the conformance script names it in a qualifier ({@code
 * shell row: …}); {@code server} stands for both PostgreSQL clients, {@code local} for both paths
 * without a server.
 */
public enum ConformancePath {
  /** The CLI's SQL shell: it prints a statement's message, or its rows as CSV. */
  SHELL("message", Set.of("local")),
  /** The embedded JDBC driver ({@code jdbc:timelake:}): rows, or an update count. */
  JDBC("count", Set.of("local")),
  /** pgjdbc against {@code timelake serve}: rows, or the update count of the command tag. */
  PGJDBC("count", Set.of("server")),
  /** psql against {@code timelake serve}: rows, or the command tag it prints. */
  PSQL("tag", Set.of("server"));

  private final String doneKey;
  private final Set<String> groups;

  ConformancePath(String doneKey, Set<String> groups) {
    this.doneKey = doneKey;
    this.groups = groups;
  }

  /** The key whose value a statement without rows is compared to on this path. */
  String doneKey() {
    return doneKey;
  }

  /** Whether a qualifier word of the script ({@code psql}, {@code server}) names this path. */
  boolean isNamedBy(String qualifier) {
    return qualifier.equals(label()) || groups.contains(qualifier);
  }

  /** The lower-case name the script uses. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether {@code word} names any path or group of paths. */
  static boolean isQualifier(String word) {
    for (ConformancePath path : values()) {
      if (path.isNamedBy(word)) {
        return true;
      }
    }
    return false;
  }
}

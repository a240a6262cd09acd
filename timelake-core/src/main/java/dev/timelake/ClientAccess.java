package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a session opened for a server's client may do: its user's {@link Role}, optionally limited
 * to some namespaces. Such a session never has the full power of DuckDB that the local user's
 * sessions have: besides Timelake's own statements it runs only queries, session-local settings
 * ({@code TimeZone}, {@code search_path}, …) and its own temporary objects; everything else (files,
 * ATTACH, extensions, instance-wide settings, objects other sessions see) is refused before it
 * runs, naming the statement and why.
 *
 * @param user the user's name, for messages
 * @param role what the user may do
 * @param namespaces the namespaces the user may use; empty: every namespace
 */
public record ClientAccess(String user, Role role, Set<String> namespaces) {
  public ClientAccess {
    requireNonNull(user, "user is null");
    requireNonNull(role, "role is null");
    TreeSet<String> lower = new TreeSet<>();
    for (String namespace : namespaces) {
      lower.add(namespace.strip().toLowerCase(Locale.ROOT));
    }
    namespaces = Set.copyOf(lower);
  }

  /** {@code user} with {@code role} in every namespace. */
  public static ClientAccess of(String user, Role role) {
    return new ClientAccess(user, role, Set.of());
  }

  /** True when the user may use tables of {@code namespace}. */
  public boolean reaches(String namespace) {
    return namespaces.isEmpty() || namespaces.contains(namespace.toLowerCase(Locale.ROOT));
  }

  /**
   * Refuses what needs {@code needed} in {@code namespace} when this access does not give it;
   * {@code what} says what was tried, e.g. "INSERT INTO iot.readings".
   *
   * @throws AccessDeniedException naming the user, role and what was needed
   */
  public void require(Role needed, String namespace, String what) {
    if (!role.allows(needed)) {
      throw new AccessDeniedException(
          String.format(
              "Cannot %s: user %s has the role %s, which %s (%s needed)",
              what, user, role, abilities(role), needed));
    }
    if (namespace != null && !reaches(namespace)) {
      throw new AccessDeniedException(
          String.format(
              "Cannot %s: user %s may use only the namespaces %s, not %s",
              what, user, String.join(", ", new TreeSet<>(namespaces)), namespace));
    }
  }

  private static String abilities(Role role) {
    return switch (role) {
      case READ -> "may only read";
      case WRITE -> "may read and append to existing tables";
      case ADMIN -> "may do everything";
    };
  }
}

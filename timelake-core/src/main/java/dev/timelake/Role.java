package dev.timelake;

import java.util.Locale;

/**
 * What a server's user may do. Each role may do what the one before it may: {@link #READ} queries
 * (a dashboard's user), {@link #WRITE} also appends to existing tables, {@link #ADMIN} also
 * creates, changes and drops tables and rollups, maintains and optimizes them, and uses the REST
 * catalog.
 */
public enum Role {
  /** Queries, EXPLAIN, SHOW and DESCRIBE, session settings, the session's own temporary objects. */
  READ,
  /** Also INSERT, COPY … FROM STDIN and line-protocol writes into existing tables. */
  WRITE,
  /**
   * Also CREATE/ALTER/DROP TABLE, rollups (CREATE, REFRESH, DROP), OPTIMIZE, line-protocol writes
   * that create tables or add columns, and the Iceberg REST catalog.
   */
  ADMIN;

  /** True when this role may do what {@code needed} may. */
  public boolean allows(Role needed) {
    return compareTo(needed) >= 0;
  }

  /** The role named {@code name} ({@code read}, {@code write} or {@code admin}, any case). */
  public static Role parse(String name) {
    try {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw TimelakeException.validation("Unknown role '%s' (expected read, write or admin)", name);
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}

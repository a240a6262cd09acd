package dev.timelake.table;

/**
 * Where a setting may be given. The more specific level wins: call over session over table. A
 * setting with no level is managed by Timelake itself and cannot be set by users.
 */
public enum Level {
  /** Only when the table is created (table options such as time_column, chunk). */
  CREATE,
  /** A table property, at creation or later through {@code alter}. */
  TABLE,
  /** {@code SET timelake.<name> = …} or the CLI's {@code --set}. */
  SESSION,
  /** One operation's options, such as an append's. */
  CALL
}

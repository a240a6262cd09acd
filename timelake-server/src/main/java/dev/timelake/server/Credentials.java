package dev.timelake.server;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * Who may connect: one user and password (SCRAM-SHA-256), from {@code TIMELAKE_USER} and {@code
 * TIMELAKE_PASSWORD}. There is never a default password, and no server runs without one.
 */
public record Credentials(String user, String password) {
  /** The variable naming the user (default: any user name the client sends is that user). */
  public static final String USER_VARIABLE = "TIMELAKE_USER";

  /** The variable holding the password. */
  public static final String PASSWORD_VARIABLE = "TIMELAKE_PASSWORD";

  public Credentials {
    requireNonNull(password, "password is null");
    if (password.isEmpty()) {
      throw new IllegalArgumentException("The password is empty");
    }
  }

  /** The credentials the environment sets, if it sets a password; user null means any name. */
  public static Optional<Credentials> fromEnvironment(Map<String, String> environment) {
    String password = environment.get(PASSWORD_VARIABLE);
    if (password == null || password.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Credentials(environment.get(USER_VARIABLE), password));
  }

  /** True when {@code name} may log in with the password. */
  boolean admits(String name) {
    return user == null || user.isEmpty() || user.equals(name);
  }
}

package dev.timelake.cli;

import dev.timelake.TimelakeException;
import dev.timelake.server.ScramSecret;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** Prints a users-file line for {@code timelake serve --users}: a name and a password verifier. */
@Command(
    name = "hash-password",
    description = {
      "Prints NAME:SCRAM-SHA-256$… for a users file of `timelake serve --users FILE`: the"
          + " password's SCRAM-SHA-256 verifier (as PostgreSQL stores it), from which the password"
          + " cannot be read back.",
      "The password is read from the terminal without echo, or as the first line of standard"
          + " input."
    },
    footer = {
      "%nExamples:",
      "  timelake hash-password alice >> users.txt",
      "  printf 'secret\\n' | timelake hash-password grafana >> users.txt"
    })
final class HashPasswordCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "The user name.")
  private String name;

  @Override
  int run() {
    if (name.isEmpty()
        || name.contains(":")
        || name.startsWith("#")
        || name.chars().anyMatch(Character::isISOControl)
        || !name.strip().equals(name)) {
      throw TimelakeException.validation(
          "Invalid user name '%s': it must be non-empty, without ':', line breaks, a leading '#'"
              + " or surrounding spaces",
          name);
    }
    String password = readPassword();
    if (password == null || password.isEmpty()) {
      throw TimelakeException.validation("No password given for user '%s'", name);
    }
    out().println(name + ":" + ScramSecret.of(password).text());
    return 0;
  }

  private String readPassword() {
    java.io.Console console = System.console();
    if (console != null && main().streams().interactive()) {
      char[] typed = console.readPassword("Password for %s: ", name);
      return typed == null ? null : new String(typed);
    }
    try {
      return new BufferedReader(
              new InputStreamReader(main().streams().in(), StandardCharsets.UTF_8))
          .readLine();
    } catch (IOException e) {
      throw TimelakeException.validation("Cannot read the password: %s", e.getMessage());
    }
  }
}

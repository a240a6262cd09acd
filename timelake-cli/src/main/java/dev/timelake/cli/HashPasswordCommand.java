package dev.timelake.cli;

import dev.timelake.TimelakeException;
import dev.timelake.server.Credentials;
import dev.timelake.server.ScramSecret;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Prints a users-file line for {@code timelake serve --users}: a name, a password verifier, a role
 * and optionally the namespaces the user may use.
 */
@Command(
    name = "hash-password",
    description = {
      "Prints NAME:SCRAM-SHA-256$… role=ROLE for a users file of `timelake serve --users FILE`:"
          + " the password's SCRAM-SHA-256 verifier (as PostgreSQL stores it), from which the"
          + " password cannot be read back, and what the user may do.",
      "Roles: read (queries only: dashboards such as Grafana), write (also INSERT, COPY FROM"
          + " STDIN and line-protocol writes into existing tables), admin (also creating,"
          + " changing and dropping tables and rollups, maintenance, the REST catalog).",
      "The password is read from the terminal without echo, or as the first line of standard"
          + " input."
    },
    footer = {
      "%nExamples:",
      "  timelake hash-password alice --role admin >> users.txt",
      "  printf 'secret\\n' | timelake hash-password grafana --role read >> users.txt",
      "  timelake hash-password line7 --role write --namespaces plant >> users.txt"
    })
final class HashPasswordCommand extends LakeCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "The user name.")
  private String name;

  @picocli.CommandLine.Option(
      names = "--role",
      paramLabel = "ROLE",
      required = true,
      description = "What the user may do: read, write or admin.")
  private String role;

  @picocli.CommandLine.Option(
      names = "--namespaces",
      paramLabel = "NS,…",
      split = ",",
      description = "The only namespaces the user may use (default: every namespace).")
  private java.util.List<String> namespaces = new java.util.ArrayList<>();

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
    dev.timelake.Role parsed = dev.timelake.Role.parse(role);
    java.util.Set<String> reachable = new java.util.TreeSet<>();
    for (String namespace : namespaces) {
      reachable.add(
          new dev.timelake.TableName(namespace.strip(), "t").requireCreatable().namespace());
    }
    String password = readPassword();
    if (password == null || password.isEmpty()) {
      throw TimelakeException.validation("No password given for user '%s'", name);
    }
    out().println(Credentials.line(name, ScramSecret.of(password), parsed, reachable));
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

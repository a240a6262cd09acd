package dev.timelake.script;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A SQL script shipped as a resource beside the class that runs it (the signal functions, the
 * PostgreSQL catalog): definitions read as SQL rather than built in Java strings. Each statement
 * ends with a line holding only {@code ;}, so a statement may contain semicolons in its literals.
 */
public record SqlScript(String name, String text) {
  public SqlScript {
    requireNonNull(name, "name is null");
    requireNonNull(text, "text is null");
  }

  /** The resource {@code name} in the package of {@code owner}. */
  public static SqlScript load(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(
            "Missing resource " + name + " next to " + owner.getSimpleName());
      }
      return new SqlScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read resource " + name, e);
    }
  }

  /** The statements, comments kept, in the order they must run. */
  public List<String> statements() {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      if (line.equals(";")) {
        statements.add(current.toString().strip());
        current.setLength(0);
      } else {
        current.append(line).append('\n');
      }
    }
    return List.copyOf(statements);
  }
}

package dev.timelake.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package layering docs/ARCHITECTURE.md draws, enforced: the core's packages import one way
 * (each only those below it in {@link #LAYERS}), the public API's entry points (the classes of
 * {@code dev.timelake} that reach into the packages) are used by no package, and the public API
 * shows no DuckDB or Arrow type except in the accessors named in {@link #ENGINE_ACCESSORS}. A new
 * package is placed in {@link #LAYERS} on purpose; a wrong import fails the build.
 */
class PackageLayeringTest {
  private static final String API = "dev.timelake";

  /** Bottom first: a package may import the packages before it, never those after it. */
  static final List<String> LAYERS =
      List.of(
          "script",
          "time",
          "signal",
          "table",
          "storage",
          "engine",
          "fill",
          "catalog",
          "index",
          "read",
          "write",
          "rollup",
          "route",
          "refresh",
          "maintain",
          "sql");

  /** Public members of the API that hand out an engine's own types, by design. */
  static final Set<String> ENGINE_ACCESSORS =
      Set.of(
          // Arrow in and out: the zero-copy paths of bulk appends and of results.
          "Append.fromArrow",
          "QueryResult.arrow",
          "HeldWrites.allocator",
          "HeldWrites.hold",
          "HeldWrites.readHeld",
          "HeldRead.rows",
          "HeldRead.<init>");

  private static final Path SOURCES = Path.of("src/main/java/dev/timelake");
  private static final Pattern REFERENCE =
      Pattern.compile("\\bdev\\.timelake\\.((?:[a-z]\\w*\\.)*)([A-Z]\\w*)");

  @Test
  void everyPackageImportsOnlyThePackagesBelowIt() {
    Map<String, Set<String>> violations = new TreeMap<>();
    for (SourceFile file : sources()) {
      if (file.packageName().isEmpty()) {
        continue;
      }
      int layer = LAYERS.indexOf(file.packageName());
      assertThat(layer)
          .as("package %s is not placed in PackageLayeringTest.LAYERS", file.packageName())
          .isNotNegative();
      for (String target : file.packagesUsed()) {
        if (!target.isEmpty() && LAYERS.indexOf(target) >= layer) {
          violations
              .computeIfAbsent(file.name(), k -> new TreeSet<>())
              .add(file.packageName() + " -> " + target);
        }
      }
    }
    assertThat(violations).as("imports against the layering %s", LAYERS).isEmpty();
  }

  @Test
  void noPackageUsesTheApisEntryPoints() {
    Set<String> entryPoints = new TreeSet<>();
    for (SourceFile file : sources()) {
      if (file.packageName().isEmpty()
          && file.packagesUsed().stream().anyMatch(p -> !p.isEmpty())) {
        entryPoints.add(file.name());
      }
    }
    assertThat(entryPoints).contains("Lake", "Table", "Session");
    Map<String, Set<String>> violations = new TreeMap<>();
    for (SourceFile file : sources()) {
      if (!file.packageName().isEmpty()) {
        for (String type : file.apiTypesUsed()) {
          if (entryPoints.contains(type)) {
            violations
                .computeIfAbsent(file.packageName() + "." + file.name(), k -> new TreeSet<>())
                .add(type);
          }
        }
      }
    }
    assertThat(violations)
        .as(
            "the API's entry points %s reach into the packages; the packages use its values only",
            entryPoints)
        .isEmpty();
  }

  @Test
  void thePublicApiShowsNoEngineTypesButItsAccessors() throws Exception {
    List<String> violations = new ArrayList<>();
    Set<String> accessors = new TreeSet<>();
    for (SourceFile file : sources()) {
      if (!file.packageName().isEmpty()) {
        continue;
      }
      Class<?> type = Class.forName(API + "." + file.name());
      if (!Modifier.isPublic(type.getModifiers())) {
        continue;
      }
      for (Class<?> declared : withNested(type)) {
        for (Method method : declared.getDeclaredMethods()) {
          check(declared, method, violations, accessors);
        }
        for (Constructor<?> constructor : declared.getDeclaredConstructors()) {
          check(declared, constructor, violations, accessors);
        }
        for (Field field : declared.getDeclaredFields()) {
          if (Modifier.isPublic(field.getModifiers()) && isEngineType(field.getGenericType())) {
            violations.add(declared.getSimpleName() + "." + field.getName());
          }
        }
      }
    }
    assertThat(violations)
        .as(
            "public members of %s with DuckDB or Arrow types (add an accessor on purpose to"
                + " ENGINE_ACCESSORS)",
            API)
        .isEmpty();
    assertThat(accessors)
        .as("ENGINE_ACCESSORS naming no public member")
        .isEqualTo(ENGINE_ACCESSORS);
  }

  private static List<Class<?>> withNested(Class<?> type) {
    List<Class<?>> all = new ArrayList<>(List.of(type));
    for (Class<?> nested : type.getDeclaredClasses()) {
      if (Modifier.isPublic(nested.getModifiers())) {
        all.addAll(withNested(nested));
      }
    }
    return all;
  }

  private static void check(
      Class<?> owner, Executable member, List<String> violations, Set<String> accessors) {
    if (!Modifier.isPublic(member.getModifiers()) || member.isSynthetic()) {
      return;
    }
    String name =
        owner.getSimpleName()
            + "."
            + (member instanceof Constructor<?> ? "<init>" : member.getName());
    if (ENGINE_ACCESSORS.contains(name)) {
      accessors.add(name);
      return;
    }
    List<Type> types = new ArrayList<>(List.of(member.getGenericParameterTypes()));
    if (member instanceof Method method) {
      types.add(method.getGenericReturnType());
    }
    if (types.stream().anyMatch(PackageLayeringTest::isEngineType)) {
      violations.add(name);
    }
  }

  private static boolean isEngineType(Type type) {
    if (type instanceof Class<?> plain) {
      Class<?> element = plain;
      while (element.isArray()) {
        element = element.getComponentType();
      }
      String name = element.getName();
      return name.startsWith("org.duckdb.") || name.startsWith("org.apache.arrow.");
    }
    if (type instanceof ParameterizedType parameterized) {
      return isEngineType(parameterized.getRawType())
          || Stream.of(parameterized.getActualTypeArguments())
              .anyMatch(PackageLayeringTest::isEngineType);
    }
    if (type instanceof GenericArrayType array) {
      return isEngineType(array.getGenericComponentType());
    }
    if (type instanceof WildcardType wildcard) {
      return Stream.concat(
              Stream.of(wildcard.getUpperBounds()), Stream.of(wildcard.getLowerBounds()))
          .anyMatch(PackageLayeringTest::isEngineType);
    }
    return false;
  }

  /**
   * One main source file: its package below {@code dev.timelake} ("" for the API itself), and the
   * Timelake packages and API types its code names (comments and string literals left out).
   */
  record SourceFile(
      String packageName, String name, Set<String> packagesUsed, Set<String> apiTypesUsed) {}

  private static List<SourceFile> sources() {
    try (Stream<Path> paths = Files.walk(SOURCES)) {
      return paths
          .filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("package-info.java"))
          .map(PackageLayeringTest::read)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SourceFile read(Path path) {
    String code;
    try {
      code = withoutCommentsAndStrings(Files.readString(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path relative = SOURCES.relativize(path.getParent());
    String packageName = relative.toString().replace('/', '.').replace('\\', '.');
    String name = path.getFileName().toString().replace(".java", "");
    Set<String> packages = new TreeSet<>();
    Set<String> apiTypes = new TreeSet<>();
    Matcher reference = REFERENCE.matcher(code);
    while (reference.find()) {
      String subpackage = reference.group(1);
      String target = subpackage.isEmpty() ? "" : subpackage.substring(0, subpackage.length() - 1);
      if (!target.equals(packageName)) {
        packages.add(target);
      }
      if (target.isEmpty()) {
        apiTypes.add(reference.group(2));
      }
    }
    if (packageName.isEmpty()) {
      packages.remove("");
    }
    return new SourceFile(packageName, name, packages, apiTypes);
  }

  /** The code with comments, string and character literals and text blocks left out. */
  private static String withoutCommentsAndStrings(String code) {
    StringBuilder kept = new StringBuilder(code.length());
    int i = 0;
    while (i < code.length()) {
      char c = code.charAt(i);
      if (code.startsWith("//", i)) {
        i = indexOrEnd(code, "\n", i);
      } else if (code.startsWith("/*", i)) {
        i = indexOrEnd(code, "*/", i + 2) + 2;
      } else if (code.startsWith("\"\"\"", i)) {
        i = indexOrEnd(code, "\"\"\"", i + 3) + 3;
      } else if (c == '"' || c == '\'') {
        i++;
        while (i < code.length() && code.charAt(i) != c) {
          i += code.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
      } else {
        kept.append(c);
        i++;
      }
    }
    return kept.toString();
  }

  private static int indexOrEnd(String code, String what, int from) {
    int at = code.indexOf(what, from);
    return at < 0 ? code.length() : at;
  }
}

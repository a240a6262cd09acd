package dev.timelake;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A table's name: a namespace (SQL schema) and a table name. Unqualified names resolve to the
 * namespace {@value #DEFAULT_NAMESPACE}. Names are case-insensitive and stored in lower case, as in
 * DuckDB.
 */
public record TableName(String namespace, String name)
    implements Comparable<TableName>, java.io.Serializable {
  public static final String DEFAULT_NAMESPACE = "default";
  private static final Pattern PART = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /**
   * Names the embedded engine, PostgreSQL clients or Timelake itself give meaning to: DuckDB's
   * catalogs and schemas, PostgreSQL's catalog schemas, and Timelake's internal prefixes.
   */
  private static final java.util.Set<String> RESERVED =
      java.util.Set.of("system", "memory", "temp", "main", "pg_catalog", "information_schema");

  private static final java.util.List<String> RESERVED_PREFIXES = java.util.List.of("tl_", "__tl");

  public TableName {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    checkPart(namespace, "namespace", namespace + "." + name);
    checkPart(name, "table name", namespace + "." + name);
    namespace = namespace.toLowerCase(Locale.ROOT);
    name = name.toLowerCase(Locale.ROOT);
  }

  /** Parses {@code ns.table} or {@code table} (namespace {@value #DEFAULT_NAMESPACE}). */
  public static TableName parse(String text) {
    requireNonNull(text, "text is null");
    String trimmed = text.trim();
    int dot = trimmed.indexOf('.');
    if (dot < 0) {
      return new TableName(DEFAULT_NAMESPACE, trimmed);
    }
    if (trimmed.indexOf('.', dot + 1) >= 0) {
      throw TimelakeException.validation(
          "Invalid table name '%s': expected namespace.table or table", text);
    }
    return new TableName(trimmed.substring(0, dot), trimmed.substring(dot + 1));
  }

  /**
   * Refuses a name a new table may not have: a namespace or table name that DuckDB or PostgreSQL
   * clients give another meaning ({@code system}, {@code memory}, {@code temp}, {@code main},
   * {@code pg_catalog}, {@code information_schema}) or that starts like Timelake's own relations
   * ({@code tl_}, {@code __tl}); a table so named would break every client's catalog queries.
   *
   * @throws ValidationException naming the part and the reserved names
   */
  public TableName requireCreatable() {
    for (String part : java.util.List.of(namespace, name)) {
      if (RESERVED.contains(part) || RESERVED_PREFIXES.stream().anyMatch(part::startsWith)) {
        throw TimelakeException.validation(
            "Cannot create %s: '%s' is a reserved name (reserved: %s, and names starting with %s);"
                + " choose another %s",
            this,
            part,
            String.join(", ", new java.util.TreeSet<>(RESERVED)),
            String.join(" or ", RESERVED_PREFIXES),
            part.equals(namespace) ? "namespace" : "table name");
      }
    }
    return this;
  }

  private static void checkPart(String part, String what, String whole) {
    if (!PART.matcher(part).matches()) {
      throw TimelakeException.validation(
          "Invalid %s '%s' in '%s': use letters, digits and _, starting with a letter or _",
          what, part, whole);
    }
  }

  @Override
  public int compareTo(TableName other) {
    int byNamespace = namespace.compareTo(other.namespace);
    return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return namespace + "." + name;
  }
}

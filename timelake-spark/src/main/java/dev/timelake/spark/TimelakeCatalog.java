package dev.timelake.spark;

import dev.timelake.Lake;
import dev.timelake.TableName;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A lake as a Spark catalog, so that Spark SQL reads Timelake tables by name with copies removed
 * and appends to them with Timelake's rules:
 *
 * <pre>
 * spark.sql.extensions=dev.timelake.spark.TimelakeSparkExtensions
 * spark.sql.catalog.timelake=dev.timelake.spark.TimelakeCatalog
 * spark.sql.catalog.timelake.warehouse=/data/lake        (a folder every executor mounts)
 * spark.sql.catalog.timelake.uri=jdbc:postgresql://db/lake   (any other catalog property)
 *
 * SELECT tag, avg(value) FROM timelake.iot.readings GROUP BY tag
 * df.writeTo("timelake.iot.readings").option("batch-id", "gateway-7/2026-01").append()
 * </pre>
 *
 * <p>Tables take appends ({@link TimelakeSpark#append}'s, with option {@code batch-id}); they are
 * not created, altered, dropped or overwritten here (do that with Timelake); namespaces and tables
 * are listed. The reads themselves are planned by {@link TimelakeSparkExtensions}' rule, which
 * replaces each table with {@link TimelakeSpark#read}'s DataFrame.
 */
public final class TimelakeCatalog implements TableCatalog, SupportsNamespaces {
  /** The catalog option naming the warehouse; every other option is a catalog property. */
  public static final String WAREHOUSE = "warehouse";

  private String name;
  private LakeAddress address;

  @Override
  public void initialize(String catalogName, CaseInsensitiveStringMap options) {
    this.name = catalogName;
    Map<String, String> properties = new HashMap<>(options.asCaseSensitiveMap());
    String warehouse = properties.remove(WAREHOUSE);
    if (warehouse == null || warehouse.isBlank()) {
      throw new IllegalArgumentException(
          "Cannot open Spark catalog "
              + catalogName
              + ": set spark.sql.catalog."
              + catalogName
              + ".warehouse to the lake's warehouse folder or s3:// location");
    }
    this.address = new LakeAddress(warehouse, properties);
  }

  @Override
  public String name() {
    return name;
  }

  /** The lake this catalog reads. */
  public LakeAddress address() {
    return address;
  }

  private Lake lake() {
    return address.lake();
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    String wanted = namespaceOf(namespace);
    List<TableName> tables =
        lake().tables().stream().filter(t -> t.namespace().equals(wanted)).toList();
    if (tables.isEmpty() && !namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return tables.stream()
        .map(t -> Identifier.of(new String[] {t.namespace()}, t.name()))
        .toArray(Identifier[]::new);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    if (ident.namespace().length != 1) {
      throw new NoSuchTableException(ident);
    }
    TableName table = new TableName(ident.namespace()[0], ident.name());
    Optional<dev.timelake.Table> found = lake().findTable(table);
    if (found.isEmpty()) {
      throw new NoSuchTableException(ident);
    }
    return new TimelakeSparkTable(address, table, found.get().readPlan().schemaJson());
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw appendOnly("alter " + ident);
  }

  @Override
  public boolean dropTable(Identifier ident) {
    throw appendOnly("drop " + ident);
  }

  @Override
  public void renameTable(Identifier from, Identifier to) {
    throw appendOnly("rename " + from);
  }

  @Override
  public String[][] listNamespaces() {
    return lake().tables().stream()
        .map(TableName::namespace)
        .distinct()
        .sorted()
        .map(ns -> new String[] {ns})
        .toArray(String[][]::new);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length == 0) {
      return listNamespaces();
    }
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return new String[0][];
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return namespace.length == 1
        && lake().tables().stream().anyMatch(t -> t.namespace().equals(namespace[0]));
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace)
      throws NoSuchNamespaceException {
    if (!namespaceExists(namespace)) {
      throw new NoSuchNamespaceException(namespace);
    }
    return Map.of();
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata) {
    throw appendOnly("create namespace " + String.join(".", namespace));
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw appendOnly("alter namespace " + String.join(".", namespace));
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade) {
    throw appendOnly("drop namespace " + String.join(".", namespace));
  }

  private static String namespaceOf(String[] namespace) {
    return namespace.length == 1 ? namespace[0] : String.join(".", namespace);
  }

  private UnsupportedOperationException appendOnly(String what) {
    return new UnsupportedOperationException(
        "Cannot "
            + what
            + " in Spark catalog "
            + name
            + ": Timelake tables take only appends from Spark; change them otherwise with Timelake"
            + " (the timelake command, SQL or the Java API)");
  }
}

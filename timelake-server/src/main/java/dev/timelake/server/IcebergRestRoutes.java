package dev.timelake.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTRequest;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;

/**
 * The Iceberg REST catalog's routes ({@code /v1/...}): each request read from its JSON body,
 * checked by the {@link RestConfinement} of the catalog's clients, and answered by Iceberg's own
 * {@link CatalogHandlers} on the catalog. Knows nothing of HTTP beyond the method, path and query;
 * {@link IcebergRestServer} sends what it returns. Thread-safe as the catalog is.
 */
final class IcebergRestRoutes {
  private static final String NAMESPACE_SEPARATOR = "\u001f";

  private final Catalog catalog;
  private final SupportsNamespaces namespaces;
  private final RestConfinement confinement;
  private final ObjectMapper json;

  /** Routes to {@code catalog}, which supports namespaces, reading bodies with {@code json}. */
  IcebergRestRoutes(Catalog catalog, ObjectMapper json) {
    this.catalog = catalog;
    this.namespaces = (SupportsNamespaces) catalog;
    this.confinement = RestConfinement.of(catalog);
    this.json = json;
  }

  /**
   * The answer to {@code method} on {@code rawPath} (starting {@code /v1/}): a response object, or
   * null for an answer without a body.
   *
   * @throws RuntimeException Iceberg's exception for what the catalog refused; {@link
   *     NotFoundException} for a route it does not have
   */
  Object route(String method, String rawPath, Map<String, String> query, byte[] body) {
    List<String> path = List.of(rawPath.substring("/v1/".length()).split("/"));
    if (path.equals(List.of("config"))) {
      return ConfigResponse.builder().build();
    }
    if (path.get(0).equals("namespaces")) {
      return namespaces(method, path, query, body);
    }
    if (path.equals(List.of("tables", "rename")) && method.equals("POST")) {
      RenameTableRequest request = body(body, RenameTableRequest.class);
      confinement.checkRename(request);
      CatalogHandlers.renameTable(catalog, request);
      return null;
    }
    throw noRoute(method, path);
  }

  /** {@code /v1/namespaces...}. */
  private Object namespaces(
      String method, List<String> path, Map<String, String> query, byte[] body) {
    if (path.size() == 1) {
      if (method.equals("POST")) {
        CreateNamespaceRequest request = body(body, CreateNamespaceRequest.class);
        confinement.checkNewNamespace(request.namespace(), request.properties());
        return CatalogHandlers.createNamespace(namespaces, request);
      }
      Namespace parent =
          query.containsKey("parent")
              ? RESTUtil.decodeNamespace(query.get("parent"), NAMESPACE_SEPARATOR)
              : Namespace.empty();
      return CatalogHandlers.listNamespaces(namespaces, parent);
    }
    Namespace namespace =
        RESTUtil.decodeNamespace(RESTUtil.decodeString(path.get(1)), NAMESPACE_SEPARATOR);
    if (path.size() == 2) {
      return namespace(method, namespace);
    }
    if (path.size() == 3 && path.get(2).equals("properties")) {
      UpdateNamespacePropertiesRequest request = body(body, UpdateNamespacePropertiesRequest.class);
      confinement.checkNamespaceProperties(namespace, request.updates());
      return CatalogHandlers.updateNamespaceProperties(namespaces, namespace, request);
    }
    if (path.size() == 3 && path.get(2).equals("register") && method.equals("POST")) {
      RegisterTableRequest request = body(body, RegisterTableRequest.class);
      confinement.checkRegister(TableIdentifier.of(namespace, request.name()), request);
      return CatalogHandlers.registerTable(catalog, namespace, request);
    }
    if (path.size() == 3 && path.get(2).equals("tables")) {
      if (method.equals("POST")) {
        CreateTableRequest request = body(body, CreateTableRequest.class);
        confinement.checkNewTable(TableIdentifier.of(namespace, request.name()), request);
        return request.stageCreate()
            ? CatalogHandlers.stageTableCreate(catalog, namespace, request)
            : CatalogHandlers.createTable(catalog, namespace, request);
      }
      return CatalogHandlers.listTables(catalog, namespace);
    }
    if (path.size() == 4 && path.get(2).equals("tables")) {
      TableIdentifier table = TableIdentifier.of(namespace, RESTUtil.decodeString(path.get(3)));
      return table(method, table, query, body);
    }
    throw noRoute(method, path);
  }

  /** {@code /v1/namespaces/NAMESPACE}. */
  private Object namespace(String method, Namespace namespace) {
    switch (method) {
      case "HEAD" -> {
        CatalogHandlers.namespaceExists(namespaces, namespace);
        return null;
      }
      case "DELETE" -> {
        CatalogHandlers.dropNamespace(namespaces, namespace);
        return null;
      }
      default -> {
        return CatalogHandlers.loadNamespace(namespaces, namespace);
      }
    }
  }

  /** {@code /v1/namespaces/NAMESPACE/tables/TABLE}. */
  private Object table(
      String method, TableIdentifier table, Map<String, String> query, byte[] body) {
    switch (method) {
      case "HEAD" -> {
        CatalogHandlers.tableExists(catalog, table);
        return null;
      }
      case "DELETE" -> {
        if (Boolean.parseBoolean(query.getOrDefault("purgeRequested", "false"))) {
          confinement.purge(table);
        } else {
          CatalogHandlers.dropTable(catalog, table);
        }
        return null;
      }
      case "POST" -> {
        UpdateTableRequest request = body(body, UpdateTableRequest.class);
        confinement.checkUpdate(table, request);
        return CatalogHandlers.updateTable(catalog, table, request);
      }
      default -> {
        return CatalogHandlers.loadTable(catalog, table, RESTCatalogProperties.SnapshotMode.ALL);
      }
    }
  }

  private static NotFoundException noRoute(String method, List<String> path) {
    return new NotFoundException("No route for %s /v1/%s", method, String.join("/", path));
  }

  /** The request in {@code body}, checked for its required fields. */
  private <T extends RESTRequest> T body(byte[] body, Class<T> type) {
    T request;
    try {
      request = json.readValue(body, type);
    } catch (IOException e) {
      throw new BadRequestException(
          "Cannot read the request body as %s: %s", type.getSimpleName(), e.getMessage());
    }
    request.validate();
    return request;
  }
}

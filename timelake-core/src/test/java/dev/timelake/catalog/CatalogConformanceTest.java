package dev.timelake.catalog;

/**
 * {@link CatalogConformance} with the tables in a local folder: the embedded SQLite catalog and
 * Iceberg's JDBC catalog on PostgreSQL.
 */
@CatalogConformance.TestedCatalogs({"embedded", "postgres"})
class CatalogConformanceTest extends CatalogConformance {}

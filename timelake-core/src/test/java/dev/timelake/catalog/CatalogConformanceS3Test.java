package dev.timelake.catalog;

/**
 * {@link CatalogConformance} with the tables on an S3 API server, the catalog a SQLite file in the
 * bucket or PostgreSQL.
 */
@CatalogConformance.TestedCatalogs({"s3-sqlite", "s3-postgres"})
class CatalogConformanceS3Test extends CatalogConformance {}

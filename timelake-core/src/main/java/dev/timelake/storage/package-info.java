/**
 * Where a lake's files live, and how DuckDB reaches them.
 *
 * <p>A {@link dev.timelake.storage.Warehouse} is a local folder or a prefix on S3 or an
 * S3-compatible store. Every lake reads and writes its files through one Iceberg file IO, {@link
 * dev.timelake.storage.LakeFileIO}: local paths through {@link dev.timelake.storage.LocalFileIO}
 * (plain {@code java.nio}), {@code s3://} locations through Iceberg's {@code S3FileIO}. DuckDB
 * reads and writes local paths only, so for remote files the file IO hands it local copies ({@link
 * dev.timelake.storage.FileCache}: immutable files, downloaded several at a time, the least
 * recently used evicted past a size limit) and uploads the files it writes once they are whole.
 * Nothing else in the code knows where a file lives.
 */
package dev.timelake.storage;

package dev.timelake.maintain;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * A hand-written fake for crash tests: loads tables from a real catalog, but can make their commits
 * fail before they reach the catalog, or succeed and then report an unknown state (a lost reply).
 * Everything else is the real catalog's.
 */
final class FailingCatalog implements Catalog, Closeable {
  enum Failure {
    NONE,
    BEFORE_COMMIT,
    AFTER_COMMIT
  }

  private final Catalog delegate;
  private volatile Failure failure = Failure.NONE;

  FailingCatalog(Catalog delegate) {
    this.delegate = delegate;
  }

  /** Makes every following commit of tables loaded from this catalog fail that way. */
  void failCommits(Failure how) {
    this.failure = how;
  }

  @Override
  public Table loadTable(TableIdentifier identifier) {
    Table table = delegate.loadTable(identifier);
    return new BaseTable(
        new FailingOperations(((HasTableOperations) table).operations()), table.name());
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return delegate.listTables(namespace);
  }

  @Override
  public boolean dropTable(TableIdentifier identifier, boolean purge) {
    return delegate.dropTable(identifier, purge);
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    delegate.renameTable(from, to);
  }

  @Override
  public void close() throws IOException {
    if (delegate instanceof Closeable closeable) {
      closeable.close();
    }
  }

  private final class FailingOperations implements TableOperations {
    private final TableOperations operations;

    FailingOperations(TableOperations operations) {
      this.operations = operations;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      switch (failure) {
        case BEFORE_COMMIT -> throw new CommitFailedException("injected commit failure");
        case AFTER_COMMIT -> {
          operations.commit(base, metadata);
          throw new CommitStateUnknownException(new RuntimeException("injected lost reply"));
        }
        case NONE -> operations.commit(base, metadata);
      }
    }

    @Override
    public TableMetadata current() {
      return operations.current();
    }

    @Override
    public TableMetadata refresh() {
      return operations.refresh();
    }

    @Override
    public FileIO io() {
      return operations.io();
    }

    @Override
    public EncryptionManager encryption() {
      return operations.encryption();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return operations.metadataFileLocation(fileName);
    }

    @Override
    public LocationProvider locationProvider() {
      return operations.locationProvider();
    }

    @Override
    public TableOperations temp(TableMetadata uncommittedMetadata) {
      return operations.temp(uncommittedMetadata);
    }

    @Override
    public long newSnapshotId() {
      return operations.newSnapshotId();
    }

    @Override
    public boolean requireStrictCleanup() {
      return operations.requireStrictCleanup();
    }
  }
}

package dev.timelake.catalog;

import java.io.Closeable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.ViewCatalog;

/**
 * The embedded catalog, opened when first asked for: a command that names no table ({@code SELECT
 * 1}, {@code SET}, a catalog query answered from the session's views) never opens the SQLite file,
 * which costs about 0.1 s of every start. It has the interfaces of Iceberg's JDBC catalog that
 * Timelake and the Iceberg REST server use.
 */
final class LazyCatalog implements InvocationHandler {
  private final Supplier<Catalog> opener;
  private volatile Catalog catalog;
  private volatile boolean closed;

  private LazyCatalog(Supplier<Catalog> opener) {
    this.opener = opener;
  }

  /** A catalog that {@code opener} opens on the first call of any of its methods but close. */
  static Catalog of(Supplier<Catalog> opener) {
    return (Catalog)
        Proxy.newProxyInstance(
            LazyCatalog.class.getClassLoader(),
            new Class<?>[] {
              Catalog.class, SupportsNamespaces.class, ViewCatalog.class, Closeable.class
            },
            new LazyCatalog(opener));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return catalog == null ? "embedded catalog (not opened yet)" : catalog.toString();
      case "close":
        closed = true;
        Catalog opened = catalog;
        if (opened instanceof Closeable closeable) {
          closeable.close();
        }
        return null;
      default:
        break;
    }
    try {
      return method.invoke(opened(), args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private Catalog opened() {
    Catalog opened = catalog;
    if (opened == null) {
      synchronized (this) {
        opened = catalog;
        if (opened == null) {
          if (closed) {
            // As an opened catalog would: a closed lake's catalog does not come back.
            throw new IllegalStateException("The embedded catalog is closed");
          }
          opened = opener.get();
          catalog = opened;
        }
      }
    }
    return opened;
  }
}

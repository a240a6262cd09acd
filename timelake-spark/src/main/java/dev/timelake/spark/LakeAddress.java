package dev.timelake.spark;

import static java.util.Objects.requireNonNull;

import dev.timelake.Lake;
import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a lake is, as Spark ships it to executors: the warehouse (a folder every executor mounts,
 * or {@code s3://bucket/prefix}) and its catalog and storage properties (as {@code
 * Lake.open(String, Map)} takes them). Each JVM opens a lake once per address and keeps it open.
 *
 * @param warehouse the warehouse folder or location
 * @param properties catalog and storage properties over those of the warehouse's properties file
 */
public record LakeAddress(String warehouse, Map<String, String> properties)
    implements Serializable {
  private static final Map<LakeAddress, Lake> OPEN = new ConcurrentHashMap<>();

  public LakeAddress {
    requireNonNull(warehouse, "warehouse is null");
    properties = Map.copyOf(properties);
  }

  /** The lake of a warehouse with no properties beyond its own file's. */
  public static LakeAddress of(String warehouse) {
    return new LakeAddress(warehouse, Map.of());
  }

  /**
   * The lake at this address, opened on first use in this JVM and shared (a lake is thread-safe);
   * closed when the JVM exits.
   */
  public Lake lake() {
    return OPEN.computeIfAbsent(this, address -> open(address));
  }

  private static Lake open(LakeAddress address) {
    Lake lake = Lake.open(address.warehouse(), address.properties());
    Runtime.getRuntime().addShutdownHook(new Thread(lake::close, "timelake-lake-close"));
    return lake;
  }

  @Override
  public String toString() {
    return warehouse;
  }
}

package dev.timelake.testkit;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 API server for tests: S3Proxy on a free loopback port, storing objects in a folder,
 * with signed requests (access key {@value #ACCESS_KEY}). Stopped on close.
 */
public final class LocalS3 implements AutoCloseable {
  public static final String ACCESS_KEY = "timelake";
  public static final String SECRET_KEY = "timelake-secret";

  private final S3Proxy proxy;
  private final BlobStoreContext context;
  private final Path folder;

  private LocalS3(S3Proxy proxy, BlobStoreContext context, Path folder) {
    this.proxy = proxy;
    this.context = context;
    this.folder = folder;
  }

  /** Starts a server whose buckets are folders under {@code folder}. */
  public static LocalS3 start(Path folder) throws Exception {
    Files.createDirectories(folder);
    Properties properties = new Properties();
    properties.setProperty("jclouds.filesystem.basedir", folder.toString());
    BlobStoreContext context =
        ContextBuilder.newBuilder("filesystem")
            .credentials(ACCESS_KEY, SECRET_KEY)
            .overrides(properties)
            .build(BlobStoreContext.class);
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(context.getBlobStore())
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    proxy.start();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
      }
      Thread.onSpinWait();
    }
    return new LocalS3(proxy, context, folder);
  }

  /** Creates a bucket; returns its s3:// URI. */
  public String createBucket(String name) {
    BlobStore store = context.getBlobStore();
    store.createContainerInLocation(null, name);
    return "s3://" + name;
  }

  /** The endpoint, such as {@code http://127.0.0.1:PORT}. */
  public String endpoint() {
    return "http://127.0.0.1:" + proxy.getPort();
  }

  /** The storage properties a lake needs to reach this server. */
  public Map<String, String> properties() {
    Map<String, String> properties = new HashMap<>();
    properties.put("s3.endpoint", endpoint());
    properties.put("s3.access-key-id", ACCESS_KEY);
    properties.put("s3.secret-access-key", SECRET_KEY);
    return properties;
  }

  /** The folder the objects of {@code bucket} are stored in. */
  public Path folderOf(String bucket) {
    return folder.resolve(bucket);
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
    context.close();
  }
}

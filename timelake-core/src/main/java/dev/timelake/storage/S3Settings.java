package dev.timelake.storage;

import java.util.HashMap;
import java.util.Map;

/**
 * The defaults Timelake adds to S3FileIO's properties, so that an S3-compatible store needs no more
 * than its endpoint and credentials: a region when none is configured anywhere (the AWS SDK refuses
 * to start without one; S3-compatible stores ignore it), and path-style requests for a custom
 * endpoint (MinIO, Ceph and most others do not serve bucket names as host names by default). And
 * checksums only where S3 requires them, the AWS SDK's behaviour before 2.30: its newer default
 * trailing checksums are refused by many S3-compatible stores (S3Proxy answers 400 and 501).
 */
final class S3Settings {
  static final String ENDPOINT = "s3.endpoint";
  static final String PATH_STYLE = "s3.path-style-access";
  static final String REGION = "client.region";

  private S3Settings() {}

  static Map<String, String> withDefaults(Map<String, String> properties) {
    checksumsWhenRequired(System.getenv());
    return withDefaults(properties, System.getenv());
  }

  /**
   * The SDK reads these settings from system properties or the environment only; a user's own
   * choice in either is kept.
   */
  private static void checksumsWhenRequired(Map<String, String> environment) {
    if (!environment.containsKey("AWS_REQUEST_CHECKSUM_CALCULATION")
        && System.getProperty("aws.requestChecksumCalculation") == null) {
      System.setProperty("aws.requestChecksumCalculation", "when_required");
    }
    if (!environment.containsKey("AWS_RESPONSE_CHECKSUM_VALIDATION")
        && System.getProperty("aws.responseChecksumValidation") == null) {
      System.setProperty("aws.responseChecksumValidation", "when_required");
    }
  }

  static Map<String, String> withDefaults(
      Map<String, String> properties, Map<String, String> environment) {
    Map<String, String> settings = new HashMap<>(properties);
    if (!settings.containsKey(REGION)
        && !environment.containsKey("AWS_REGION")
        && !environment.containsKey("AWS_DEFAULT_REGION")
        && !java.nio.file.Files.exists(
            java.nio.file.Path.of(System.getProperty("user.home"), ".aws", "config"))) {
      settings.put(REGION, "us-east-1");
    }
    boolean customEndpoint =
        settings.containsKey(ENDPOINT)
            || environment.containsKey("AWS_ENDPOINT_URL_S3")
            || environment.containsKey("AWS_ENDPOINT_URL");
    if (customEndpoint && !settings.containsKey(PATH_STYLE)) {
      settings.put(PATH_STYLE, "true");
    }
    return settings;
  }
}

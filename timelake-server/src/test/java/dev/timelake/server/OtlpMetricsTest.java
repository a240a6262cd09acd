package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * OpenTelemetry metrics over OTLP/HTTP, sent by the OpenTelemetry Java SDK's own OTLP exporter
 * (protobuf) and as OTLP/JSON: a table per metric with the attributes as the series key, sums with
 * their temporality, histograms as one column per bucket that rollups can add up, exponential
 * histograms with their buckets as sent, summaries with a column per quantile.
 */
class OtlpMetricsTest extends WithLineProtocolServer {
  /**
   * A meter provider exporting to the server's namespace app through the SDK's OTLP/HTTP exporter
   * (on demand: forceFlush), with {@code instrument} aggregated as {@code aggregation}.
   */
  private SdkMeterProvider provider(String instrument, Aggregation aggregation) {
    OtlpHttpMetricExporter exporter =
        OtlpHttpMetricExporter.builder()
            .setEndpoint("http://127.0.0.1:" + server.port() + "/v1/metrics?db=app")
            .addHeader("Authorization", "Bearer " + PASSWORD)
            .build();
    PeriodicMetricReader reader =
        PeriodicMetricReader.builder(exporter).setInterval(Duration.ofHours(1)).build();
    return SdkMeterProvider.builder()
        .setResource(
            Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "pump-api")))
        .registerMetricReader(reader)
        .registerView(
            InstrumentSelector.builder().setName(instrument).build(),
            View.builder().setAggregation(aggregation).build())
        .build();
  }

  /** Exports what {@code provider} holds, then closes it. */
  private static void export(SdkMeterProvider provider) {
    CompletableResultCode flushed = provider.forceFlush();
    flushed.join(30, TimeUnit.SECONDS);
    assertThat(flushed.isSuccess()).as("the exporter's request succeeded").isTrue();
    provider.close();
  }

  @Test
  void theSdksExporterWritesCountersAndHistograms() throws Exception {
    SdkMeterProvider provider =
        provider("request.duration", Aggregation.explicitBucketHistogram(List.of(0.1, 0.5, 2.5)));
    Meter meter = provider.get("timelake-test");
    LongCounter requests = meter.counterBuilder("http.requests").build();
    DoubleHistogram duration = meter.histogramBuilder("request.duration").build();
    Attributes get = Attributes.of(AttributeKey.stringKey("method"), "GET");
    requests.add(3, get);
    requests.add(2, Attributes.of(AttributeKey.stringKey("method"), "POST"));
    duration.record(0.05, get);
    duration.record(0.3, get);
    duration.record(7.0, get);
    export(provider);

    assertThat(lake.table("app.http_requests").seriesKey())
        .contains("method", "service_name", "temporality", "monotonic");
    assertThat(
            rows(
                // DISTINCT: closing the provider exports the cumulative sums once more
                "SELECT DISTINCT method, value, temporality, monotonic FROM app.http_requests"
                    + " ORDER BY method"))
        .containsExactly(
            List.of("GET", 3L, "cumulative", "true"), List.of("POST", 2L, "cumulative", "true"));
    assertThat(
            rows(
                "SELECT DISTINCT count, sum, le_0_1, le_0_5, le_2_5, le_inf, service_name FROM"
                    + " app.request_duration"))
        .containsExactly(List.of(3L, 7.35, 1L, 1L, 0L, 1L, "pump-api"));
  }

  @Test
  void theSdksExporterWritesExponentialHistograms() throws Exception {
    SdkMeterProvider provider =
        provider("latency", Aggregation.base2ExponentialBucketHistogram(4, 20));
    DoubleHistogram latency = provider.get("timelake-test").histogramBuilder("latency").build();
    latency.record(1.5);
    latency.record(3.0);
    latency.record(3.5);
    latency.record(0);
    latency.record(-2.0); // the SDK drops negative measurements of a histogram
    export(provider);

    List<List<Object>> stored =
        rows(
            "SELECT DISTINCT count, sum, min, max, zero_count, scale, positive, negative,"
                + " temporality FROM app.latency");
    assertThat(stored).hasSize(1);
    List<Object> row = stored.get(0);
    assertThat(row.subList(0, 5)).containsExactly(4L, 8.0, 0.0, 3.5, 1L);
    long scale = (Long) row.get(5);
    assertThat(scale).isBetween(-10L, 20L);
    // Each value lies in its bucket: (base^index, base^(index + 1)] with base = 2^(2^-scale).
    assertThat(bucketOf(1.5, scale, (String) row.get(6))).isEqualTo(1L);
    assertThat(counts((String) row.get(6))).isEqualTo(3L);
    assertThat((String) row.get(7)).endsWith(":"); // no negative buckets
    assertThat(row.get(8)).isEqualTo("cumulative");
  }

  /** The count of the bucket {@code value} falls in, from {@code offset:count,…}. */
  private static long bucketOf(double value, long scale, String buckets) {
    long offset = Long.parseLong(buckets.substring(0, buckets.indexOf(':')));
    String[] counts = buckets.substring(buckets.indexOf(':') + 1).split(",");
    long index = (long) Math.ceil(Math.log(value) / Math.log(2) * Math.pow(2, scale)) - 1;
    return Long.parseLong(counts[(int) (index - offset)]);
  }

  private static long counts(String buckets) {
    long total = 0;
    for (String count : buckets.substring(buckets.indexOf(':') + 1).split(",")) {
      total += Long.parseLong(count);
    }
    return total;
  }

  @Test
  void otlpJsonSummariesAndExponentialHistogramsAreStored() throws Exception {
    HttpResponse<String> response =
        postJson(
            "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"name\":\"rpc.time\","
                + "\"summary\":{\"dataPoints\":[{\"timeUnixNano\":\"1767225600000000000\","
                + "\"count\":\"4\",\"sum\":10.5,\"quantileValues\":[{\"quantile\":0.5,"
                + "\"value\":2.0},{\"quantile\":0.99,\"value\":6.0},{\"value\":1.0}]}]}},"
                + "{\"name\":\"size\",\"exponentialHistogram\":{\"aggregationTemporality\":1,"
                + "\"dataPoints\":[{\"timeUnixNano\":\"1767225600000000000\",\"count\":\"3\","
                + "\"sum\":12.0,\"scale\":0,\"zeroCount\":\"0\",\"positive\":{\"offset\":1,"
                + "\"bucketCounts\":[\"2\",\"1\"]}}]}}]}]}]}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(rows("SELECT count, sum, q_0, q_0_5, q_0_99 FROM otel.rpc_time"))
        .containsExactly(List.of(4L, 10.5, 1.0, 2.0, 6.0));
    assertThat(rows("SELECT count, sum, scale, zero_count, positive, temporality FROM otel.size"))
        .containsExactly(List.of(3L, 12.0, 0L, 0L, "1:2,1", "delta"));
    HttpResponse<String> badQuantile =
        postJson(
            "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"name\":\"q\","
                + "\"summary\":{\"dataPoints\":[{\"timeUnixNano\":\"1\",\"quantileValues\":"
                + "[{\"quantile\":1.5,\"value\":1.0}]}]}}]}]}]}");
    assertThat(badQuantile.statusCode()).isEqualTo(400);
    assertThat(badQuantile.body()).contains("a summary quantile is 1.5");
  }

  private HttpResponse<String> postJson(String json) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/metrics"))
            .header("Authorization", "Bearer " + PASSWORD)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void otlpJsonGaugesAreWrittenToTheOtelNamespace() throws Exception {
    HttpResponse<String> response =
        postJson(
            "{\"resourceMetrics\":[{\"resource\":{\"attributes\":[{\"key\":\"host.name\","
                + "\"value\":{\"stringValue\":\"h1\"}}]},\"scopeMetrics\":[{\"metrics\":[{"
                + "\"name\":\"pump.pressure\",\"gauge\":{\"dataPoints\":[{\"attributes\":[{"
                + "\"key\":\"pump\",\"value\":{\"intValue\":\"7\"}}],\"timeUnixNano\":"
                + "\"1767225600000000000\",\"asDouble\":2.5}]}}]}]}]}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("{}");
    assertThat(rows("SELECT host_name, pump, epoch(time), value FROM otel.pump_pressure"))
        .containsExactly(List.of("h1", "7", 1_767_225_600.0, 2.5));
  }

  @Test
  void malformedRequestsAreRefusedNamingWhatIsWrong() throws Exception {
    HttpResponse<String> notJson = postJson("{\"resourceMetrics\":");
    assertThat(notJson.statusCode()).isEqualTo(400);
    assertThat(notJson.body()).contains("The body is not JSON");
    HttpResponse<String> badHistogram =
        postJson(
            "{\"resourceMetrics\":[{\"scopeMetrics\":[{\"metrics\":[{\"name\":\"d\","
                + "\"histogram\":{\"dataPoints\":[{\"timeUnixNano\":\"1\",\"bucketCounts\":"
                + "[\"1\"],\"explicitBounds\":[1.0,2.0]}]}}]}]}]}");
    assertThat(badHistogram.statusCode()).isEqualTo(400);
    assertThat(badHistogram.body()).contains("1 bucket counts for 2 bounds");
    HttpResponse<String> protobuf =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/metrics"))
                .header("Authorization", "Bearer " + PASSWORD)
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {0x0a, 50, 1}))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(protobuf.statusCode()).isEqualTo(400);
    assertThat(protobuf.body()).contains("not an OTLP metrics export request");
    HttpResponse<String> text =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/v1/metrics"))
                .header("Authorization", "Bearer " + PASSWORD)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(text.statusCode()).isEqualTo(415);
    assertThat(lake.tables()).isEmpty();
  }
}

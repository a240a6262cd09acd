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
 * their temporality, histograms as one column per bucket that rollups can add up.
 */
class OtlpMetricsTest extends WithLineProtocolServer {
  @Test
  void theSdksExporterWritesCountersAndHistograms() throws Exception {
    OtlpHttpMetricExporter exporter =
        OtlpHttpMetricExporter.builder()
            .setEndpoint("http://127.0.0.1:" + server.port() + "/v1/metrics?db=app")
            .addHeader("Authorization", "Bearer " + PASSWORD)
            .build();
    PeriodicMetricReader reader =
        PeriodicMetricReader.builder(exporter).setInterval(Duration.ofHours(1)).build();
    SdkMeterProvider provider =
        SdkMeterProvider.builder()
            .setResource(
                Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "pump-api")))
            .registerMetricReader(reader)
            .registerView(
                InstrumentSelector.builder().setName("request.duration").build(),
                View.builder()
                    .setAggregation(Aggregation.explicitBucketHistogram(List.of(0.1, 0.5, 2.5)))
                    .build())
            .build();
    Meter meter = provider.get("timelake-test");
    LongCounter requests = meter.counterBuilder("http.requests").build();
    DoubleHistogram duration = meter.histogramBuilder("request.duration").build();
    Attributes get = Attributes.of(AttributeKey.stringKey("method"), "GET");
    requests.add(3, get);
    requests.add(2, Attributes.of(AttributeKey.stringKey("method"), "POST"));
    duration.record(0.05, get);
    duration.record(0.3, get);
    duration.record(7.0, get);
    CompletableResultCode flushed = provider.forceFlush();
    flushed.join(30, TimeUnit.SECONDS);
    assertThat(flushed.isSuccess()).as("the exporter's request succeeded").isTrue();
    provider.close();

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

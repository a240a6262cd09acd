package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/**
 * Prometheus remote write (snappy-compressed protobuf, as Prometheus sends it; built here with
 * Protocol Buffers' encoder and Snappy's Java library): a table per metric with the labels as the
 * series key, staleness markers left out, malformed bodies refused with 400 before anything is
 * allocated for what they claim.
 */
class PrometheusRemoteWriteTest extends WithLineProtocolServer {
  private static final long T0 = 1_767_225_600_000L; // 2026-01-01, in ms

  /** One time series: its labels (with __name__) and samples as {value, timestamp ms} pairs. */
  private record Series(Map<String, String> labels, double[] values, long[] millis) {}

  private static Series series(String name, Map<String, String> labels, double... values) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("__name__", name);
    all.putAll(labels);
    long[] millis = new long[values.length];
    for (int i = 0; i < values.length; i++) {
      millis[i] = T0 + 15_000L * i;
    }
    return new Series(all, values, millis);
  }

  /** A prometheus.WriteRequest, encoded field by field as prometheus/prompb/types.proto says. */
  private static byte[] writeRequest(Series... all) throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(request);
    for (Series series : all) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      CodedOutputStream timeSeries = CodedOutputStream.newInstance(body);
      for (Map.Entry<String, String> label : series.labels().entrySet()) {
        ByteArrayOutputStream labelBytes = new ByteArrayOutputStream();
        CodedOutputStream labelOut = CodedOutputStream.newInstance(labelBytes);
        labelOut.writeString(1, label.getKey());
        labelOut.writeString(2, label.getValue());
        labelOut.flush();
        timeSeries.writeByteArray(1, labelBytes.toByteArray());
      }
      for (int i = 0; i < series.values().length; i++) {
        ByteArrayOutputStream sampleBytes = new ByteArrayOutputStream();
        CodedOutputStream sampleOut = CodedOutputStream.newInstance(sampleBytes);
        sampleOut.writeDouble(1, series.values()[i]);
        sampleOut.writeInt64(2, series.millis()[i]);
        sampleOut.flush();
        timeSeries.writeByteArray(2, sampleBytes.toByteArray());
      }
      timeSeries.flush();
      out.writeByteArray(1, body.toByteArray());
    }
    out.flush();
    return request.toByteArray();
  }

  private HttpResponse<String> remoteWrite(String query, byte[] body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/api/v1/write" + query))
            .header("Authorization", "Bearer " + PASSWORD)
            .header("Content-Encoding", "snappy")
            .header("Content-Type", "application/x-protobuf")
            .header("X-Prometheus-Remote-Write-Version", "0.1.0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void eachMetricIsATableWithItsLabelsAsTheSeriesKey() throws Exception {
    HttpResponse<String> response =
        remoteWrite(
            "",
            Snappy.compress(
                writeRequest(
                    series(
                        "node_cpu_seconds_total",
                        Map.of("cpu", "0", "mode", "idle", "instance", "h1:9100"),
                        10.5,
                        11.0,
                        Double.longBitsToDouble(PrometheusRemoteWrite.STALE_NAN)),
                    series(
                        "node_cpu_seconds_total",
                        Map.of("cpu", "1", "mode", "idle", "instance", "h1:9100"),
                        7.25),
                    series("job:up:sum", Map.of("job", "node"), 1.0))));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
    var table = lake.table("prometheus.node_cpu_seconds_total");
    assertThat(table.seriesKey()).containsExactly("cpu", "instance", "mode");
    assertThat(
            rows(
                "SELECT cpu, epoch_ms(time), value FROM prometheus.node_cpu_seconds_total ORDER"
                    + " BY cpu, time"))
        .containsExactly(
            List.of("0", T0, 10.5), List.of("0", T0 + 15_000, 11.0), List.of("1", T0, 7.25));
    assertThat(rows("SELECT job, value FROM prometheus.job_up_sum"))
        .containsExactly(List.of("node", 1.0));
  }

  @Test
  void theDbParameterNamesTheNamespaceAndAResendIsWrittenOnce() throws Exception {
    byte[] body = Snappy.compress(writeRequest(series("up", Map.of("job", "a"), 1.0)));
    assertThat(remoteWrite("?db=metrics", body).statusCode()).isEqualTo(204);
    assertThat(remoteWrite("?db=metrics", body).statusCode()).isEqualTo(204);
    assertThat(rows("SELECT count(*) FROM metrics.up")).containsExactly(List.of(1L));
    assertThat(snapshots("metrics.up")).isEqualTo(1);
  }

  @Test
  void aHotTierHoldsRemoteWritesAndCommitsThemAfterACrash() throws Exception {
    server.close();
    java.util.Optional<HotTierSettings> tier =
        java.util.Optional.of(
            new HotTierSettings(1_000_000, java.time.Duration.ofHours(1), 1 << 24));
    server =
        LineProtocolServer.start(
            lake,
            new java.net.InetSocketAddress("127.0.0.1", 0),
            new Credentials("tl", PASSWORD),
            java.util.Optional.empty(),
            tier);
    byte[] body = Snappy.compress(writeRequest(series("up", Map.of("job", "a"), 1.0, 0.0)));
    assertThat(remoteWrite("", body).statusCode()).isEqualTo(204);
    HotTier.of(lake).orElseThrow().halt(); // as a crash: held, not committed
    server.close();
    assertThat(rows("SELECT count(*) FROM prometheus.up")).containsExactly(List.of(0L));
    server =
        LineProtocolServer.start(
            lake,
            new java.net.InetSocketAddress("127.0.0.1", 0),
            new Credentials("tl", PASSWORD),
            java.util.Optional.empty(),
            tier);
    assertThat(rows("SELECT value FROM prometheus.up ORDER BY time"))
        .containsExactly(List.of(1.0), List.of(0.0));
  }

  @Test
  void aBodyThatIsNotSnappyIsRefused() throws Exception {
    HttpResponse<String> response = remoteWrite("", new byte[] {(byte) 0xff, (byte) 0xff});
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("not snappy-compressed data");
  }

  @Test
  void aClaimedSizeBeyondTheLimitIsRefusedBeforeDecompressing() throws Exception {
    // A snappy header claiming 2 GiB, then nothing.
    byte[] body = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08};
    HttpResponse<String> response = remoteWrite("", body);
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("decompresses to 2147483648 bytes, more than the");
  }

  @Test
  void aMessageThatIsNotAWriteRequestIsRefused() throws Exception {
    // Field 1, length-delimited, claiming 100 bytes where 2 follow.
    HttpResponse<String> response = remoteWrite("", Snappy.compress(new byte[] {0x0a, 100, 1, 2}));
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .contains("not a Prometheus remote-write request")
        .contains("a length of 100 where 2 bytes are left");
  }

  @Test
  void aSeriesWithoutAMetricNameIsRefusedAndNothingIsWritten() throws Exception {
    Series named = series("up", Map.of("job", "a"), 1.0);
    Series nameless = new Series(Map.of("job", "b"), new double[] {1.0}, new long[] {T0});
    HttpResponse<String> response = remoteWrite("", Snappy.compress(writeRequest(named, nameless)));
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("time series 2 has no __name__ label");
    assertThat(lake.tables()).isEmpty();
  }
}

package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.TableName;
import io.questdb.client.Sender;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Line protocol over HTTP as InfluxDB 1 and 2 clients and QuestDB's Java Sender send it: tables
 * made on first write, columns added for new fields, refused requests that change nothing, and
 * resent requests that append nothing twice.
 */
class LineProtocolServerTest extends WithLineProtocolServer {
  /** A second server on the same lake with its own limits. */
  private LineProtocolServer server(LineProtocolServer.Limits limits) throws IOException {
    return start(lake, PASSWORD, limits);
  }

  /** Writes {@code lines} to {@code other}, a second server, as InfluxDB 2 in seconds. */
  private HttpResponse<String> v2(LineProtocolServer other, String lines) throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + other.port() + "/api/v2/write?bucket=iot&precision=s"))
            .header("Authorization", "Token " + PASSWORD)
            .POST(HttpRequest.BodyPublishers.ofString(lines))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> v2(String lines) throws Exception {
    return post(
        "/api/v2/write?org=any&bucket=iot&precision=s",
        "Token " + PASSWORD,
        lines.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void createsATablePerMeasurementWithTagsAsTheSeriesKey() throws Exception {
    HttpResponse<String> response =
        v2(
            "readings,site=north,device=d1 value=21.5,quality=192i,ok=true,note=\"fine\""
                + " 1767225600\n"
                + "readings,site=north,device=d2 value=19.0,quality=0i,ok=false 1767225600\n"
                + "alarms,device=d1 code=7i 1767225660\n");
    assertThat(response.statusCode()).isEqualTo(204);
    var table = lake.table(TableName.parse("iot.readings"));
    assertThat(table.seriesKey()).containsExactly("device", "site");
    assertThat(table.timeColumn()).contains("time");
    assertThat(
            rows(
                "SELECT device, site, time, value, quality, ok, note FROM iot.readings ORDER BY"
                    + " device"))
        .containsExactly(
            List.of(
                "d1",
                "north",
                java.time.OffsetDateTime.parse("2026-01-01T00:00:00Z"),
                21.5,
                192L,
                true,
                "fine"),
            java.util.Arrays.asList(
                "d2",
                "north",
                java.time.OffsetDateTime.parse("2026-01-01T00:00:00Z"),
                19.0,
                0L,
                false,
                null));
    assertThat(rows("SELECT device, code FROM iot.alarms")).containsExactly(List.of("d1", 7L));
  }

  @Test
  void aTableThatTakesEveryWriteAsACorrectionSaysSoInTheAnswer() throws Exception {
    HttpResponse<String> created = v2("cpu,host=a usage=1 1767225600");
    assertThat(created.statusCode()).isEqualTo(204);
    assertThat(created.headers().firstValue("X-Timelake-Write-Policy")).isEmpty();
    lake.table(TableName.parse("iot.cpu")).alter(java.util.Map.of("write-policy", "upsert"));

    HttpResponse<String> corrected =
        v2("cpu,host=a usage=2 1767225600\nother,host=a usage=3 1767225600");
    assertThat(corrected.statusCode()).isEqualTo(204);
    assertThat(corrected.headers().firstValue("X-Timelake-Write-Policy"))
        .contains("upsert: iot.cpu");
    assertThat(rows("SELECT usage FROM iot.cpu")).containsExactly(List.of(2.0));
  }

  @Test
  void addsColumnsForNewFieldsAndReadsOldRowsAsNull() throws Exception {
    HttpResponse<String> first = v2("readings,device=d1 value=1 1767225600");
    assertThat(first.statusCode()).as(first.body()).isEqualTo(204);
    HttpResponse<String> widened = v2("readings,device=d1,line=l2 value=2,pressure=3.5 1767225601");
    // The answer's body says why, should it ever be refused (seen once as a 503 under load).
    assertThat(widened.statusCode()).as(widened.body()).isEqualTo(204);
    assertThat(rows("SELECT value, line, pressure FROM iot.readings ORDER BY time"))
        .containsExactly(
            java.util.Arrays.asList(1.0, null, null), java.util.Arrays.asList(2.0, "l2", 3.5));
  }

  @Test
  void refusesAMismatchedTypeNamingLineAndFieldAndWritesNothing() throws Exception {
    assertThat(v2("readings,device=d1 value=1 1767225600").statusCode()).isEqualTo(204);
    int snapshots = snapshots("iot.readings");
    HttpResponse<String> refused =
        v2(
            "readings,device=d1 value=2 1767225601\n"
                + "other,device=x reading=1 1767225601\n"
                + "readings,device=d1 value=\"high\" 1767225602\n");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body())
        .contains("line 3")
        .contains("field 'value'")
        .contains("a string")
        .contains("iot.readings.value (DOUBLE)");
    assertThat(snapshots("iot.readings")).isEqualTo(snapshots);
    assertThat(lake.findTable(TableName.parse("iot.other"))).isEmpty();
    HttpResponse<String> malformed = v2("readings,device=d1 value=abc 1767225601\n");
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).contains("line 1").contains("'abc'");
    assertThat(v2("readings,device=d1 time=1 1767225601\n").body())
        .contains("'time' is a column Timelake sets itself");
  }

  @Test
  void tagsSomeLinesLackAreColumnsAndTheSeriesKeyIsRequiredAfterwards() throws Exception {
    assertThat(
            v2("cpu,host=a,region=x usage=1 1767225600\ncpu,host=b usage=2 1767225600")
                .statusCode())
        .isEqualTo(204);
    assertThat(lake.table(TableName.parse("iot.cpu")).seriesKey()).containsExactly("host");
    int snapshots = snapshots("iot.cpu");
    HttpResponse<String> refused = v2("cpu,region=y usage=3 1767225601");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("line 1").contains("no value for 'host'");
    assertThat(snapshots("iot.cpu")).isEqualTo(snapshots);
  }

  @Test
  void namesThatDifferOnlyInCaseAreRefusedBeforeAnythingIsCreated() throws Exception {
    HttpResponse<String> refused =
        v2("cpu,host=a usage=1 1767225600\nmem,host=a Free=1,free=2 1767225600");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("line 2").contains("differ only in case");
    assertThat(lake.tables()).isEmpty();
  }

  @Test
  void linesWithoutTimestampsAreNewPointsEachTimeTheyArrive() throws Exception {
    assertThat(v2("door,room=r1 open=true").statusCode()).isEqualTo(204);
    Thread.sleep(2);
    assertThat(v2("door,room=r1 open=true").statusCode()).isEqualTo(204);
    assertThat(rows("SELECT count(*) FROM iot.door")).containsExactly(List.of(2L));
  }

  @Test
  void anUnreadableGzipBodyIsRefused() throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/api/v2/write?bucket=iot"))
            .header("Authorization", "Token " + PASSWORD)
            .header("Content-Encoding", "gzip")
            .POST(HttpRequest.BodyPublishers.ofString("not gzip at all"))
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("gzip");
  }

  @Test
  void answersBusyWhenRequestsHoldTooMuchDataAtOnce() throws Exception {
    try (LineProtocolServer small =
        server(LineProtocolServer.Limits.DEFAULT.withBytesInFlight(4 << 10))) {
      String line = "readings,device=d1 value=1 1767225600\n";
      HttpResponse<String> busy = v2(small, line.repeat(400));
      assertThat(busy.statusCode()).isEqualTo(503);
      assertThat(busy.body()).contains("send it again");
      assertThat(busy.headers().firstValue("Retry-After")).contains("1");
      assertThat(lake.tables()).isEmpty();
      HttpResponse<String> fits = v2(small, line);
      assertThat(fits.statusCode()).isEqualTo(204); // the budget came back after the 503
    }
  }

  @Test
  void aClientThatStopsSendingItsBodyIsCutOffAndWritesNothing() throws Exception {
    try (LineProtocolServer strict =
            server(
                LineProtocolServer.Limits.DEFAULT.withDeadlines(
                    java.time.Duration.ofSeconds(10), java.time.Duration.ofMillis(300)));
        java.net.Socket slow = new java.net.Socket("127.0.0.1", strict.port())) {
      slow.setSoTimeout(10_000);
      String head =
          "POST /api/v2/write?bucket=iot&precision=s HTTP/1.1\r\nHost: x\r\nAuthorization: Token "
              + PASSWORD
              + "\r\nContent-Length: 1000\r\n\r\nreadings,device=d1 value=1 1767225600\n";
      slow.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      slow.getOutputStream().flush();
      long started = System.nanoTime();
      // The server closes the connection (an end or a reset) instead of waiting for the rest.
      int answer;
      try {
        answer = slow.getInputStream().read();
      } catch (java.net.SocketException reset) {
        answer = -1;
      }
      assertThat(answer).isEqualTo(-1);
      assertThat(System.nanoTime() - started).isLessThan(8_000_000_000L);
      assertThat(lake.tables()).isEmpty();
    }
  }

  @Test
  void aResentRequestAppendsNothingTwice() throws Exception {
    String lines = "readings,device=d1 value=1 1767225600\nreadings,device=d2 value=2 1767225600";
    assertThat(v2(lines).statusCode()).isEqualTo(204);
    int snapshots = snapshots("iot.readings");
    assertThat(v2(lines).statusCode()).isEqualTo(204);
    assertThat(snapshots("iot.readings")).isEqualTo(snapshots);
    assertThat(rows("SELECT count(*) FROM iot.readings")).containsExactly(List.of(2L));
  }

  @Test
  void takesInfluxdbOneWritesWithPrecisionAndGzip() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      gzip.write("cpu,host=a usage=0.5 1767225600000\n".getBytes(StandardCharsets.UTF_8));
    }
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:"
                        + server.port()
                        + "/write?db=metrics&precision=ms&u=tl&p=line%20secret"))
            .header("Content-Encoding", "gzip")
            .POST(HttpRequest.BodyPublishers.ofByteArray(zipped.toByteArray()))
            .build();
    assertThat(http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(204);
    assertThat(rows("SELECT host, epoch_ms(time), usage FROM metrics.cpu"))
        .containsExactly(List.of("a", 1767225600000L, 0.5));
  }

  @Test
  void refusesWrongOrMissingCredentials() throws Exception {
    byte[] body = "cpu,host=a usage=1 1".getBytes(StandardCharsets.UTF_8);
    assertThat(post("/api/v2/write?bucket=iot", null, body).statusCode()).isEqualTo(401);
    assertThat(post("/api/v2/write?bucket=iot", "Token wrong", body).statusCode()).isEqualTo(401);
    String basic =
        Base64.getEncoder().encodeToString(("nobody:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    assertThat(post("/write?db=iot", "Basic " + basic, body).statusCode()).isEqualTo(401);
    assertThat(post("/write?db=iot&u=tl&p=nope", null, body).statusCode()).isEqualTo(401);
    assertThat(lake.tables()).isEmpty();
    assertThat(post("/api/v2/query", "Token " + PASSWORD, body).statusCode()).isEqualTo(404);
    assertThat(
            http.send(
                    HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + server.port() + "/ping"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(204);
  }

  @Test
  void anAddressThatKeepsGuessingIsRefusedWithoutAPasswordCheck() throws Exception {
    byte[] body = "cpu,host=a usage=1 1".getBytes(StandardCharsets.UTF_8);
    // Requests without credentials guess nothing and are not counted.
    for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK + 2; i++) {
      assertThat(post("/api/v2/write?bucket=iot", null, body).statusCode()).isEqualTo(401);
    }
    for (int i = 0; i < LoginThrottle.FAILURES_BEFORE_BLOCK; i++) {
      assertThat(post("/api/v2/write?bucket=iot", "Token guess" + i, body).statusCode())
          .isEqualTo(401);
    }
    HttpResponse<String> refused = post("/api/v2/write?bucket=iot", "Token " + PASSWORD, body);
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body())
        .contains(
            "Too many failed logins of user \\\"(token)\\\" from 127.0.0.1 (or on this server)");
    assertThat(refused.headers().firstValue("Retry-After")).isPresent();
    assertThat(lake.tables()).isEmpty();
  }

  @Test
  void questdbSenderWritesOverHttp() {
    Instant at = Instant.parse("2026-02-01T12:00:00.123456Z");
    try (Sender sender =
        Sender.fromConfig(
            "http::addr=127.0.0.1:"
                + server.port()
                + ";username=tl;password="
                + PASSWORD
                + ";protocol_version=1;")) {
      for (int i = 0; i < 3; i++) {
        sender
            .table("trades")
            .symbol("symbol", "ETH-USD")
            .symbol("side", i % 2 == 0 ? "buy" : "sell")
            .doubleColumn("price", 2615.5 + i)
            .longColumn("amount", 10 + i)
            .at(at.plusSeconds(i));
      }
    }
    assertThat(rows("SELECT side, price, amount, time FROM trades ORDER BY time"))
        .containsExactly(
            List.of(
                "buy", 2615.5, 10L, java.time.OffsetDateTime.parse("2026-02-01T12:00:00.123456Z")),
            List.of(
                "sell", 2616.5, 11L, java.time.OffsetDateTime.parse("2026-02-01T12:00:01.123456Z")),
            List.of(
                "buy", 2617.5, 12L, java.time.OffsetDateTime.parse("2026-02-01T12:00:02.123456Z")));
  }
}

package dev.timelake.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.timelake.Lake;
import dev.timelake.QueryResult;
import dev.timelake.Session;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real browser: headless Chromium (Debian's {@code chromium} and {@code
 * chromium-driver}, which {@code .ci/run} installs) through WebDriver. A wrong password is refused;
 * a login shows the lake's tables; a routed hourly query draws one line per device, lists its rows
 * and shows in its plan the rollup that answered it; dragging over the chart zooms; logging out
 * returns to the login form. A screenshot of the chart goes to {@code target/console-chart.png}.
 */
class ConsoleBrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  @TempDir Path folder;
  private Lake lake;
  private LineProtocolServer server;
  private WebDriver browser;

  @BeforeEach
  void start() throws Exception {
    assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Chromium and chromedriver are not installed (.ci/run installs Debian's packages)");
    lake = Lake.open(folder.resolve("wh"));
    try (Session session = lake.newSession()) {
      sql(
          session,
          "CREATE TABLE iot.r (device VARCHAR, time TIMESTAMPTZ, value DOUBLE) WITH"
              + " (time_column = 'time', series_key = 'device', auto_maintain = false)");
      sql(
          session,
          "INSERT INTO iot.r SELECT d, TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL (m)"
              + " MINUTE, CASE d WHEN 'a' THEN sin(m / 60.0) ELSE m / 720.0 END FROM"
              + " (VALUES ('a'), ('b')) t(d), range(0, 1440, 5) r(m)");
      sql(
          session,
          "CREATE MATERIALIZED ROLLUP iot.r_1h AS SELECT device, time_bucket(INTERVAL '1 hour',"
              + " time) AS hour, avg(value), count(*) FROM iot.r GROUP BY device, hour WITH"
              + " (refresh_interval = 'off')");
      // A late reading after the refresh: its hour is read from raw data, the rest from the
      // rollup. And a second file in the same partition: work for maintenance.
      sql(session, "INSERT INTO iot.r VALUES ('a', TIMESTAMPTZ '2026-01-01 12:02:00+00', 0.5)");
      sql(
          session,
          "CREATE TABLE market.bars (symbol VARCHAR, ts TIMESTAMPTZ, close DOUBLE) WITH"
              + " (index_column = 'ts', entity_columns = 'symbol', index_granularity = '1m')");
      sql(
          session,
          "INSERT INTO market.bars SELECT s, TIMESTAMPTZ '2026-01-02 14:00:00+00' + INTERVAL (m)"
              + " MINUTE, m FROM (VALUES ('NVDA'), ('AMD')) t(s), range(60) r(m) WHERE s ="
              + " 'NVDA' OR m % 20 < 10");
    }
    Path users = folder.resolve("users.txt");
    Files.write(users, List.of("ada:" + ScramSecret.of("ada pw").text() + " role=admin"));
    server =
        LineProtocolServer.start(
            lake, new InetSocketAddress("127.0.0.1", 0), Credentials.fromFile(users));
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
        "--user-data-dir=" + Files.createDirectory(folder.resolve("chromium")));
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
    browser = new ChromeDriver(service, options);
  }

  @AfterEach
  void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void logsInRunsARoutedQueryChartsItShowsItsPlanAndLogsOut() throws Exception {
    WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    browser.get("http://127.0.0.1:" + server.port() + "/");
    wait.until(d -> d.findElement(By.id("login-form")).isDisplayed());

    logIn("ada", "wrong");
    wait.until(d -> !text("login-error").isEmpty());
    assertThat(text("login-error")).contains("Wrong user or password");

    logIn("ada", "ada pw");
    wait.until(d -> d.findElement(By.id("app-view")).isDisplayed());
    wait.until(d -> text("tables").contains("iot.r"));
    assertThat(text("who")).isEqualTo("ada (admin)");

    // The editor is CodeMirror's: keys go to its input, and SQL keywords are highlighted.
    WebElement editor = browser.findElement(By.cssSelector(".CodeMirror textarea"));
    editor.sendKeys(
        "SELECT device, time_bucket(INTERVAL '1 hour', time) AS hour, avg(value) AS v"
            + " FROM iot.r GROUP BY ALL ORDER BY ALL");
    assertThat(browser.findElements(By.cssSelector(".CodeMirror .cm-keyword"))).isNotEmpty();
    editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.ENTER));
    wait.until(d -> text("status").contains("rows"));
    assertThat(text("status")).contains("48 rows").contains("answered from rollups");
    WebElement chart = browser.findElement(By.id("chart"));
    assertThat(chart.getDomAttribute("data-series")).isEqualTo("2");
    assertThat(text("legend")).contains("a v").contains("b v");
    assertThat(chart.getDomAttribute("data-sources")).isEqualTo("rollup:2,raw:1");
    assertThat(text("sources-note"))
        .contains("rollup iot.r_1h")
        .contains("raw data: changed since the rollup's refresh");
    Files.write(
        Path.of("target", "console-chart.png"),
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

    String range = chart.getDomAttribute("data-range");
    new Actions(browser)
        .moveToElement(chart, -200, 0)
        .clickAndHold()
        .moveByOffset(150, 0)
        .release()
        .perform();
    // Zooming runs the query again over the range, with buckets that fit the chart: minutes of
    // raw readings instead of the rollup's hours.
    wait.until(d -> text("chart-note").contains("zoomed with buckets of"));
    assertThat(chart.getDomAttribute("data-range")).isNotEqualTo(range);
    assertThat(text("status")).doesNotContain("answered from rollups");
    Files.write(
        Path.of("target", "console-chart-zoomed.png"),
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    new Actions(browser).doubleClick(chart).perform();
    wait.until(d -> text("chart-note").contains("drag to zoom"));
    assertThat(text("status")).contains("48 rows").contains("answered from rollups");

    click("[data-tab=table-tab]");
    assertThat(browser.findElements(By.cssSelector("#results tbody tr"))).hasSize(48);
    assertThat(text("results")).contains("TIMESTAMP WITH TIME ZONE");

    // A longer result is paged, 100 rows at a time.
    ((org.openqa.selenium.JavascriptExecutor) browser)
        .executeScript(
            "document.querySelector('.CodeMirror').CodeMirror.setValue('SELECT * FROM"
                + " range(250) r(n)')");
    browser.findElement(By.id("run")).click();
    wait.until(d -> text("status").startsWith("250 rows"));
    assertThat(text("page-info")).isEqualTo("page 1 of 3 (rows 1–100)");
    assertThat(browser.findElements(By.cssSelector("#results tbody tr"))).hasSize(100);
    browser.findElement(By.id("page-next")).click();
    browser.findElement(By.id("page-next")).click();
    assertThat(text("page-info")).isEqualTo("page 3 of 3 (rows 201–250)");
    assertThat(browser.findElements(By.cssSelector("#results tbody tr"))).hasSize(50);
    assertThat(browser.findElement(By.id("page-next")).isEnabled()).isFalse();
    ((org.openqa.selenium.JavascriptExecutor) browser)
        .executeScript(
            "document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0])",
            "SELECT device, time_bucket(INTERVAL '1 hour', time) AS hour, avg(value) AS v"
                + " FROM iot.r GROUP BY ALL ORDER BY ALL");
    browser.findElement(By.id("run")).click();
    wait.until(d -> text("status").startsWith("48 rows"));

    click("[data-tab=plan-tab]");
    assertThat(text("sources"))
        .contains(
            "iot.r: answered from rollup iot.r_1h; raw data for 2026-01-01T12:00:00Z to"
                + " 2026-01-01T13:00:00Z (changed since the rollup's refresh)");

    ((org.openqa.selenium.JavascriptExecutor) browser)
        .executeScript("document.querySelector('.CodeMirror').CodeMirror.setValue('')");
    editor.sendKeys("SELECT * FROM iot.nope");
    browser.findElement(By.id("run")).click();
    wait.until(d -> !text("error").isEmpty());
    assertThat(text("error")).contains("iot.nope").contains("(at line 1, column 15)");
    // The editor marks the place the error names.
    // (CodeMirror draws each token of the marked name in its own element.)
    assertThat(
            browser.findElements(By.cssSelector(".CodeMirror .error-mark")).stream()
                .map(WebElement::getText)
                .collect(java.util.stream.Collectors.joining()))
        .isEqualTo("iot.nope");

    // HTML in values, column names and error messages is shown as text, never run.
    org.openqa.selenium.JavascriptExecutor script =
        (org.openqa.selenium.JavascriptExecutor) browser;
    script.executeScript(
        "document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0])",
        "SELECT '<img src=x onerror=\"window.pwned=1\">' AS \"<b onmouseover=window.pwned=2>k</b>\","
            + " TIMESTAMPTZ '2026-01-01 00:00:00+00' + INTERVAL (i) HOUR AS t, i AS v"
            + " FROM range(3) r(i)");
    browser.findElement(By.id("run")).click();
    wait.until(d -> text("status").contains("3 rows"));
    assertThat(browser.findElements(By.cssSelector("#results img, #results b, #legend img")))
        .isEmpty();
    click("[data-tab=chart-tab]");
    assertThat(text("legend")).contains("<img src=x onerror=\"window.pwned=1\">");
    click("[data-tab=table-tab]");
    assertThat(text("results"))
        .contains("<img src=x onerror=\"window.pwned=1\">")
        .contains("<b onmouseover=window.pwned=2>k</b>");
    script.executeScript(
        "document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0])",
        "SELECT * FROM \"<img src=x onerror=window.pwned=3>\"");
    browser.findElement(By.id("run")).click();
    wait.until(d -> text("error").contains("<img"));
    assertThat(browser.findElements(By.cssSelector("#error img"))).isEmpty();
    assertThat(script.executeScript("return window.pwned === undefined")).isEqualTo(true);

    // A result beyond the page's first 10,000 rows: later pages come from the server.
    script.executeScript(
        "document.querySelector('.CodeMirror').CodeMirror.setValue(arguments[0])",
        "SELECT range AS i FROM range(25000)");
    browser.findElement(By.id("run")).click();
    wait.until(d -> text("status").contains("10000+ rows"));
    click("[data-tab=table-tab]");
    script.executeScript("renderTable(state.result, 150)");
    wait.until(d -> text("page-info").startsWith("page 151"));
    assertThat(text("page-info")).isEqualTo("page 151 of many (rows 15001–15100)");
    assertThat(browser.findElement(By.cssSelector("#results tbody td")).getText())
        .isEqualTo("15000");
    script.executeScript("renderTable(state.result, 249)");
    wait.until(d -> text("page-info").startsWith("page 250"));
    assertThat(text("page-info")).isEqualTo("page 250 of 250 (rows 24901–25000)");
    assertThat(browser.findElement(By.id("page-next")).isEnabled()).isFalse();

    // The lake: the table's rollups, partitions and history, and maintenance with its plan first.
    browser.findElement(By.xpath("//ul[@id='tables']/li[text()='iot.r']")).click();
    wait.until(d -> text("lake-name").equals("iot.r"));
    assertThat(text("lake-rollups"))
        .contains("iot.r_1h")
        .contains("1h")
        .contains("behind the table by");
    assertThat(text("lake-columns")).contains("series key").contains("time");
    assertThat(text("lake-partitions")).contains("2026-01-01");
    assertThat(browser.findElements(By.cssSelector("#lake-snapshots tbody tr"))).hasSize(2);
    assertThat(text("lake-overlap")).startsWith("2 files in 1 overlap group");
    browser.findElement(By.id("maintain")).click();
    wait.until(d -> d.findElement(By.id("maintain-run")).isDisplayed());
    assertThat(text("maintain-plan")).isNotEmpty();
    browser.findElement(By.id("maintain-run")).click();
    wait.until(d -> text("maintain-plan").startsWith("Maintained: files 2 → 1"));
    assertThat(text("lake-overlap")).isEqualTo("No files share keys: every file is read as it is.");
    Files.write(
        Path.of("target", "console-table.png"),
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

    // An ordered-index table's coverage heat map: AMD has gaps, NVDA none.
    browser.findElement(By.xpath("//ul[@id='tables']/li[text()='market.bars']")).click();
    wait.until(d -> text("lake-name").equals("market.bars"));
    assertThat(browser.findElement(By.id("lake-coverage-section")).isDisplayed()).isTrue();
    assertThat(browser.findElements(By.cssSelector("#lake-coverage tbody tr"))).hasSize(2);
    assertThat(text("lake-coverage")).contains("AMD").contains("NVDA").contains("none");
    Files.write(
        Path.of("target", "console-coverage.png"),
        ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));

    click("#ingest-tab-button");
    wait.until(d -> text("ingest-tables").contains("rows/s (last minute)"));

    browser.findElement(By.id("logout")).click();
    wait.until(d -> d.findElement(By.id("login-form")).isDisplayed());
    browser.navigate().refresh();
    wait.until(d -> d.findElement(By.id("login-form")).isDisplayed());
  }

  private void logIn(String user, String password) {
    WebElement name = browser.findElement(By.id("login-user"));
    name.clear();
    name.sendKeys(user);
    WebElement secret = browser.findElement(By.id("login-password"));
    secret.clear();
    secret.sendKeys(password);
    browser.findElement(By.id("login-button")).click();
  }

  private void click(String css) {
    browser.findElement(By.cssSelector(css)).click();
  }

  private String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  private static void sql(Session session, String statement) {
    try (QueryResult ignored = session.sql(statement)) {
      // statements without rows
    }
  }
}

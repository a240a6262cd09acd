// Timelake's web console: login, SQL with a table, a line chart and the plan that answered it.
// Plain JavaScript, no build step; the server's API is under /console/api/.
"use strict";

const state = { csrf: null, sql: null, result: null, zoom: null };
const $ = (id) => document.getElementById(id);
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
  "#e377c2", "#7f7f7f", "#bcbd22"];
const TIME_TYPES = ["TIMESTAMP WITH TIME ZONE", "TIMESTAMP", "DATE", "TIMESTAMP_NS", "TIMESTAMP_MS"];
const NUMBER_TYPES = ["DOUBLE", "FLOAT", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "HUGEINT",
  "UBIGINT", "UINTEGER", "USMALLINT", "UTINYINT"];

async function api(path, body) {
  const options = body === undefined
    ? { credentials: "same-origin" }
    : {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Timelake-Csrf": state.csrf || "" },
      body: JSON.stringify(body),
    };
  const response = await fetch("/console/api/" + path, options);
  let json = {};
  try { json = await response.json(); } catch (e) { json = { error: "HTTP " + response.status }; }
  return { status: response.status, json };
}

function show(view) {
  $("login-view").classList.toggle("hidden", view !== "login");
  $("app-view").classList.toggle("hidden", view !== "app");
  $("logout").classList.toggle("hidden", view !== "app");
}

async function start() {
  const session = await api("session");
  if (session.status === 200) {
    loggedIn(session.json);
  } else {
    show("login");
  }
}

function loggedIn(me) {
  state.csrf = me.csrf;
  $("who").textContent = me.user + " (" + me.role + ")";
  show("app");
  loadTables();
  renderHistory();
}

async function login(event) {
  event.preventDefault();
  $("login-error").textContent = "";
  const answer = await api("login", { user: $("login-user").value, password: $("login-password").value });
  if (answer.status === 200) {
    $("login-password").value = "";
    loggedIn(answer.json);
  } else {
    $("login-error").textContent = answer.json.error || ("HTTP " + answer.status);
  }
}

async function logout() {
  await api("logout", {});
  state.csrf = null;
  $("who").textContent = "";
  show("login");
}

async function loadTables() {
  const answer = await api("tables");
  const list = $("tables");
  list.replaceChildren();
  for (const table of (answer.json.tables || [])) {
    const item = document.createElement("li");
    item.textContent = table.name;
    item.addEventListener("click", () => showTable(table.name));
    list.appendChild(item);
  }
}

/** The statement in the editor. */
function sqlText() {
  return state.editor ? state.editor.getValue() : $("sql").value;
}

function setSql(text) {
  if (state.editor) state.editor.setValue(text); else $("sql").value = text;
}

async function run() {
  const sql = sqlText().trim();
  if (!sql) return;
  remember(sql);
  state.sql = sql;
  await execute({ sql });
}

/** Runs the last statement again over [from, to) with buckets that fit the chart's width. */
async function zoomTo(from, to) {
  const points = Math.round($("chart").width / 2);
  await execute({ sql: state.sql, zoom: { from: new Date(from).toISOString(),
    to: new Date(to).toISOString(), points } });
}

/** Marks where a failed statement's error points: in the editor, and in words under it. */
function markError(position) {
  if (!position) return;
  $("error").textContent += "\n(at line " + position.line + ", column " + position.column + ")";
  if (!state.editor) return;
  const from = { line: position.line - 1, ch: position.column - 1 };
  // The name there (a qualified one whole: iot.nope), or the one character.
  const text = state.editor.getLine(from.line) || "";
  let end = from.ch;
  while (end < text.length && /[\w."$]/.test(text[end])) end++;
  const to = { line: from.line, ch: Math.max(end, from.ch + 1) };
  state.errorMark = state.editor.markText(from, to, { className: "error-mark" });
  state.editor.setCursor(from);
}

async function execute(request) {
  $("error").textContent = "";
  if (state.errorMark) state.errorMark.clear();
  $("status").textContent = "running…";
  const started = performance.now();
  const timer = setInterval(() => {
    $("status").textContent = "running… " + ((performance.now() - started) / 1000).toFixed(1) + " s";
  }, 100);
  let answer;
  $("cancel").classList.remove("hidden");
  try {
    answer = await api("query", request);
  } finally {
    clearInterval(timer);
    $("cancel").classList.add("hidden");
  }
  if (answer.status === 401) {
    show("login");
    return;
  }
  if (answer.status !== 200) {
    $("status").textContent = "failed";
    $("error").textContent = answer.json.error || ("HTTP " + answer.status);
    markError(answer.json.position);
    return;
  }
  state.result = answer.json;
  state.zoom = null;
  const result = answer.json;
  $("status").textContent = result.columns
    ? result.rows.length + (result.more ? "+ rows (more a page at a time)" : " rows") + " in "
      + result.elapsedMs.toFixed(1) + " ms" + (result.routed ? " — answered from rollups" : "")
    : (result.message || "done") + " (" + result.elapsedMs.toFixed(1) + " ms)";
  renderTable(result);
  renderChart(result);
  renderPlan(result);
  if (!result.columns) loadTables();
}

/** Rows per page of the result table (the server's pages are as long). */
const PAGE = 100;

/**
 * Shows page `page` of the result: from the rows the answer brought, or, past them, one page the
 * server reads on from the result it keeps open (the page never holds more than the answer's rows
 * and the page shown).
 */
async function renderTable(result, page = 0) {
  const loaded = result.columns ? result.rows.length : 0;
  let rows = result.rows ? result.rows.slice(page * PAGE, (page + 1) * PAGE) : [];
  let more = page * PAGE + rows.length < loaded || result.more;
  let known = result.more ? null : loaded;
  if (result.columns && page * PAGE >= loaded && result.more) {
    const answer = await api("rows", { cursor: result.cursor, offset: page * PAGE });
    if (answer.status !== 200) {
      $("error").textContent = answer.json.error || ("HTTP " + answer.status);
      return;
    }
    rows = answer.json.rows;
    more = answer.json.more;
    if (!more) known = answer.json.rowsRead;
    if (answer.json.cut) $("error").textContent = "The result was cut short after "
      + answer.json.rowsRead + " rows; narrow the query";
  }
  state.page = page;
  const pages = known === null ? null : Math.max(1, Math.ceil(known / PAGE));
  $("pager").classList.toggle("hidden", !result.columns || pages === 1);
  $("page-info").textContent = "page " + (page + 1) + " of " + (pages === null ? "many" : pages)
    + " (rows " + (page * PAGE + 1) + "–" + (page * PAGE + rows.length) + ")";
  $("page-previous").disabled = page === 0;
  $("page-next").disabled = !more;
  const head = $("results").tHead;
  const body = $("results").tBodies[0];
  head.replaceChildren();
  body.replaceChildren();
  if (!result.columns) return;
  const row = head.insertRow();
  result.columns.forEach((name, i) => {
    const cell = document.createElement("th");
    cell.textContent = name;
    const type = document.createElement("small");
    type.textContent = result.types[i];
    cell.appendChild(type);
    row.appendChild(cell);
  });
  for (const values of rows) {
    const line = body.insertRow();
    for (const value of values) {
      line.insertCell().textContent = value === null ? "NULL" : String(value);
    }
  }
}

/** The chart's shape: the time column, the numeric columns, and the other columns as series keys. */
function chartShape(result) {
  if (!result.columns) return null;
  const time = result.types.findIndex((type) => TIME_TYPES.includes(type));
  if (time < 0) return null;
  const numbers = [];
  const keys = [];
  result.types.forEach((type, i) => {
    if (i === time) return;
    if (NUMBER_TYPES.includes(type) || type.startsWith("DECIMAL")) numbers.push(i);
    else keys.push(i);
  });
  return numbers.length ? { time, numbers, keys } : null;
}

/** Series of [ms, value] points, one per key combination and numeric column. */
function chartSeries(result, shape) {
  const series = new Map();
  for (const row of result.rows) {
    const at = Date.parse(row[shape.time]);
    if (Number.isNaN(at)) continue;
    const key = shape.keys.map((i) => String(row[i])).join(" ");
    for (const i of shape.numbers) {
      const name = (key ? key + " " : "") + result.columns[i];
      if (!series.has(name)) series.set(name, []);
      const value = row[i] === null ? null : Number(row[i]);
      series.get(name).push([at, value]);
    }
  }
  for (const points of series.values()) points.sort((a, b) => a[0] - b[0]);
  return series;
}

function renderChart(result) {
  const canvas = $("chart");
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, canvas.width, canvas.height);
  $("legend").replaceChildren();
  const shape = chartShape(result);
  if (!shape) {
    canvas.dataset.series = "0";
    $("chart-note").textContent = result.columns
      ? "No chart: the result needs a time column and a numeric column." : "";
    return;
  }
  const series = chartSeries(result, chartShape(result));
  canvas.dataset.series = String(series.size);
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const points of series.values()) {
    for (const [x, y] of points) {
      if (state.zoom && (x < state.zoom[0] || x > state.zoom[1])) continue;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x);
      if (y !== null) { y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
    }
  }
  if (!Number.isFinite(x0) || !Number.isFinite(y0)) {
    $("chart-note").textContent = "No points to draw.";
    return;
  }
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) { y1 += 1; y0 -= 1; }
  const pad = { left: 60, right: 10, top: 10, bottom: 30 };
  const width = canvas.width - pad.left - pad.right;
  const height = canvas.height - pad.top - pad.bottom;
  const px = (x) => pad.left + ((x - x0) / (x1 - x0)) * width;
  const py = (y) => pad.top + height - ((y - y0) / (y1 - y0)) * height;
  canvas.dataset.range = new Date(x0).toISOString() + "/" + new Date(x1).toISOString();
  context.strokeStyle = "#999";
  context.fillStyle = "#333";
  context.font = "11px sans-serif";
  context.strokeRect(pad.left, pad.top, width, height);
  for (let i = 0; i <= 4; i++) {
    const y = y0 + ((y1 - y0) * i) / 4;
    context.fillText(y.toPrecision(4), 4, py(y) + 4);
    const x = x0 + ((x1 - x0) * i) / 4;
    context.fillText(new Date(x).toISOString().replace("T", " ").slice(0, 16),
      Math.min(px(x) - 40, canvas.width - 110), canvas.height - 8);
  }
  drawSources(context, result, x0, x1, px, pad, height);
  let color = 0;
  for (const [name, points] of series) {
    const stroke = COLORS[color++ % COLORS.length];
    context.strokeStyle = stroke;
    context.beginPath();
    let drawing = false;
    for (const [x, y] of points) {
      if (y === null || (state.zoom && (x < state.zoom[0] || x > state.zoom[1]))) {
        drawing = false;
        continue;
      }
      if (drawing) context.lineTo(px(x), py(y)); else context.moveTo(px(x), py(y));
      drawing = true;
    }
    context.stroke();
    const label = document.createElement("span");
    label.textContent = "■ " + name;
    label.style.color = stroke;
    $("legend").appendChild(label);
  }
  $("chart-note").textContent = series.size + " series"
    + (result.zoom ? ", zoomed with buckets of " + result.zoom.width + " (double-click resets)"
      : state.zoom ? " (zoomed: double-click resets)" : " (drag to zoom)");
  canvas.onmousedown = (down) => {
    const rect = canvas.getBoundingClientRect();
    const scale = canvas.width / rect.width;
    const from = (down.clientX - rect.left) * scale;
    canvas.onmouseup = (up) => {
      const to = (up.clientX - rect.left) * scale;
      canvas.onmouseup = null;
      if (Math.abs(to - from) < 5) return;
      const time = (p) => x0 + ((p - pad.left) / width) * (x1 - x0);
      const range = [time(Math.min(from, to)), time(Math.max(from, to))];
      if (result.zoomable) {
        zoomTo(range[0], range[1]);
      } else {
        state.zoom = range;
        renderChart(result);
      }
    };
  };
  canvas.ondblclick = () => {
    if (result.zoom) {
      execute({ sql: state.sql });
    } else {
      state.zoom = null;
      renderChart(result);
    }
  };
}

/** Shades of the rollups that answered (one per rollup) and of raw data (one per reason). */
const ROLLUP_SHADES = ["rgba(10, 140, 60, 0.12)", "rgba(20, 90, 200, 0.12)",
  "rgba(120, 60, 180, 0.12)", "rgba(0, 150, 150, 0.12)"];
const RAW_SHADES = {
  "partial bucket at an edge of the range": "rgba(230, 120, 0, 0.12)",
  "changed since the rollup's refresh": "rgba(220, 40, 20, 0.16)",
};

/**
 * Shades the chart's buckets by where they came from: each rollup in its colour, raw data in a
 * colour per reason (a partial edge, changed since the refresh), from the plan's
 * spans, with a legend under the chart; the canvas's data-sources attribute counts both.
 */
function drawSources(context, result, x0, x1, px, pad, height) {
  const spans = ((result.plan || {}).routes || []).flatMap((route) => route.spans || []);
  const rollups = [...new Set(spans.filter((s) => s.rollup).map((s) => s.rollup))];
  const shade = (span) => span.rollup
    ? ROLLUP_SHADES[rollups.indexOf(span.rollup) % ROLLUP_SHADES.length]
    : RAW_SHADES[span.why] || "rgba(230, 120, 0, 0.16)";
  const seen = { rollup: 0, raw: 0 };
  const legend = new Map();
  for (const span of spans) {
    const start = Math.max(x0, span.start === null ? -Infinity : Date.parse(span.start));
    const end = Math.min(x1, span.end === null ? Infinity : Date.parse(span.end));
    if (!(end > start)) continue;
    seen[span.rollup ? "rollup" : "raw"]++;
    context.fillStyle = shade(span);
    context.fillRect(px(start), pad.top, Math.max(1, px(end) - px(start)), height);
    legend.set(span.rollup ? "rollup " + span.rollup : "raw data: " + span.why, shade(span));
  }
  context.fillStyle = "#333";
  $("chart").dataset.sources = "rollup:" + seen.rollup + ",raw:" + seen.raw;
  const note = $("sources-note");
  note.replaceChildren();
  if (!legend.size) return;
  note.append("Where the buckets came from: ");
  for (const [label, colour] of legend) {
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colour.replace(/[\d.]+\)$/, "0.6)");
    note.append(swatch, label + "  ");
  }
}

function renderPlan(result) {
  const sources = $("sources");
  sources.replaceChildren();
  const plan = result.plan || { reads: [], routes: [] };
  for (const route of plan.routes) {
    const item = document.createElement("li");
    if (route.rollups.length) {
      item.className = "rollup";
      const raw = (route.spans || []).filter((span) => !span.rollup)
        .map((span) => (span.start || "−∞") + " to " + (span.end || "+∞") + " (" + span.why + ")");
      item.textContent = route.table + ": answered from rollup " + route.rollups.join(", ")
        + (raw.length ? "; raw data for " + raw.join(", ") : "")
        + (route.reason ? " — " + route.reason : "");
    } else {
      item.className = "raw";
      item.textContent = route.table + ": raw data — " + (route.reason || "not routed");
    }
    sources.appendChild(item);
  }
  for (const read of plan.reads) {
    const item = document.createElement("li");
    item.textContent = read.table + ": " + read.filesRead + " of " + read.filesBeforePruning
      + " files read (" + read.partitionsRead + " of " + read.partitionsBeforePruning
      + " partitions; the others pruned), " + read.filesInOverlapGroups
      + " in " + read.overlapGroups + " overlap groups, copies removed by " + read.dedup;
    sources.appendChild(item);
  }
  $("plan").textContent = (result.explanation || []).join("\n");
}

/** Seconds in words: 45 s, 12 min, 3.5 h, 2.0 days. */
function duration(seconds) {
  if (seconds < 90) return seconds + " s";
  if (seconds < 5400) return Math.round(seconds / 60) + " min";
  if (seconds < 172800) return (seconds / 3600).toFixed(1) + " h";
  return (seconds / 86400).toFixed(1) + " days";
}

/** A table's details in the Table tab: columns, rollups and their freshness, partitions, history. */
async function showTable(name) {
  const answer = await api("table?name=" + encodeURIComponent(name));
  if (answer.status !== 200) {
    $("error").textContent = answer.json.error || ("HTTP " + answer.status);
    return;
  }
  const table = answer.json;
  state.table = table.name;
  $("lake-empty").classList.add("hidden");
  $("lake-table").classList.remove("hidden");
  $("lake-name").textContent = table.name + (table.rollupOf ? " — rollup of " + table.rollupOf : "");
  $("maintain-plan").textContent = "";
  $("maintain-run").classList.add("hidden");
  grid("lake-columns", ["column", "type", "nullable", "role"], table.columns.map((c) => [c.name,
    c.type, c.nullable ? "yes" : "no",
    c.name === table.timeColumn ? "time" : table.seriesKey.includes(c.name) ? "series key" : ""]));
  grid("lake-rollups", ["rollup", "bucket", "by", "aggregates", "where", "fresh", "rows", "files", ""],
    table.rollups.map((r) => [r.name, r.bucket, r.keys.join(", "),
      Object.entries(r.aggregates).map(([k, v]) => k + " = " + v).join(", "), r.filter,
      r.fresh ? "up to date" : "behind the table" + (r.lagSeconds === null ? ""
        : " by " + duration(r.lagSeconds)), r.rows, r.files, refreshButton(r.name)]));
  $("lake-overlap").textContent = table.filesInOverlapGroups
    ? table.filesInOverlapGroups + " files in " + table.overlapGroups + " overlap group"
      + (table.overlapGroups === 1 ? "" : "s") + ": their rows may share keys, so copies are removed"
      + " on read until maintenance merges them"
    : "No files share keys: every file is read as it is.";
  grid("lake-partitions", ["partition", "files", "rows", "bytes", "files in overlap groups"],
    table.partitions.map((p) => [p.label, p.files, p.rows, p.bytes, p.overlappingFiles]));
  grid("lake-snapshots",
    ["snapshot", "committed", "operation", "rows added", "rows deleted", "written by"],
    table.snapshots.map((s) => [s.id, s.committedAt, s.operation, s.addedRows, s.deletedRows,
      s.writtenBy]));
  grid("lake-settings", ["setting", "value"], Object.entries(table.settings));
  renderCoverage(table.coverage);
  selectTab("lake-tab");
}

/** An ordered-index table's coverage: a cell per series and stretch, darker where more is covered. */
function renderCoverage(coverage) {
  $("lake-coverage-section").classList.toggle("hidden", !coverage);
  if (!coverage) return;
  $("lake-coverage-note").textContent = "Granularity " + coverage.granularity + "; "
    + coverage.seriesShown + " of " + coverage.seriesTotal + " series; each cell is the share of "
    + "intervals holding a row (hover for the figure).";
  // Short column labels: times within a day, dates for daily stretches, else both.
  const first = Date.parse(coverage.columns[0] || 0);
  const last = Date.parse(coverage.columns[coverage.columns.length - 1] || 0);
  const step = coverage.columns.length > 1 ? Date.parse(coverage.columns[1]) - first : 0;
  const label = (start) => last - first < 86400000 ? start.slice(11, 16)
    : step >= 86400000 ? start.slice(5, 10) : start.slice(5, 16).replace("T", " ");
  const header = ["series"].concat(coverage.columns.map(label), ["longest gap"]);
  grid("lake-coverage", header, coverage.series.map((row) => [row.series.join(" ")]
    .concat(row.ratios.map(heatCell),
      [row.longestGap ? row.longestGap.start + " to " + row.longestGap.end
        + " (" + row.longestGap.intervals + " intervals)" : "none"])));
}

function heatCell(ratio) {
  const cell = document.createElement("span");
  cell.className = "heat-cell";
  cell.title = (ratio * 100).toFixed(1) + " % covered";
  cell.textContent = ratio >= 1 ? "■" : ratio > 0 ? "▪" : "·";
  cell.style.opacity = String(0.25 + 0.75 * ratio);
  cell.dataset.ratio = String(ratio);
  return cell;
}

function refreshButton(rollup) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Refresh…";
  button.addEventListener("click", async () => {
    const quoted = rollup.split(".").map((part) => '"' + part.replaceAll('"', '""') + '"').join(".");
    const plan = await api("query", { sql: "EXPLAIN REFRESH MATERIALIZED ROLLUP " + quoted });
    const lines = plan.status === 200 ? plan.json.rows.map((row) => row.join(" ")) : [plan.json.error];
    $("maintain-plan").textContent = lines.join("\n");
    if (plan.status === 200 && confirm("Refresh " + rollup + "?\n\n" + lines.join("\n"))) {
      const done = await api("query", { sql: "REFRESH MATERIALIZED ROLLUP " + quoted });
      $("maintain-plan").textContent = done.status === 200 ? done.json.message : done.json.error;
      showTable(state.table).then(() => { $("maintain-plan").textContent = done.json.message || done.json.error; });
    }
  });
  return button;
}

/** Fills the table {@code id} with a header and rows; a cell may be a text or an element. */
function grid(id, header, rows) {
  const table = $(id);
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const name of header) {
    const cell = document.createElement("th");
    cell.textContent = name;
    head.appendChild(cell);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    for (const value of row) {
      const cell = line.insertCell();
      if (value instanceof Node) cell.appendChild(value);
      else cell.textContent = value === null || value === undefined ? "" : String(value);
    }
  }
}

async function maintainPlan() {
  const answer = await api("maintain", { table: state.table, dryRun: true });
  if (answer.status !== 200) {
    $("maintain-plan").textContent = answer.json.error;
    return;
  }
  $("maintain-plan").textContent = answer.json.plan.length
    ? answer.json.plan.join("\n") : "Nothing to do.";
  $("maintain-run").classList.toggle("hidden", answer.json.plan.length === 0);
}

async function maintainRun() {
  $("maintain-run").classList.add("hidden");
  $("maintain-plan").textContent = "maintaining…";
  const answer = await api("maintain", { table: state.table });
  const report = answer.status === 200
    ? "Maintained: files " + answer.json.filesBefore + " → " + answer.json.filesAfter + ", "
      + answer.json.partitionsRewritten + " partitions rewritten, " + answer.json.snapshotsExpired
      + " snapshots expired, " + answer.json.tookMs + " ms"
    : answer.json.error;
  await showTable(state.table);
  $("maintain-plan").textContent = report;
}

const BARS = "▁▂▃▄▅▆▇█";

/** The ingest view: rows per table in the last ten minutes, and refused requests. */
async function showIngest() {
  const answer = await api("ingest");
  if (answer.status !== 200) return;
  const view = answer.json;
  grid("ingest-tables", ["table", "through", "rows/s (last minute)", "rows (last minute)",
    "last write", "rows since start", "last 10 minutes"], view.tables.map((t) => {
    const top = Math.max(1, ...t.slots);
    const line = t.slots.map((n) => n === 0 ? " " : BARS[Math.min(7, Math.floor((n / top) * 7.99))]).join("");
    return [t.table, t.sources.join(", "), t.rowsPerSecond.toFixed(1), t.rowsLastMinute,
      t.lastWrite, t.rowsSinceStart, line];
  }));
  grid("ingest-refused", ["at", "through", "reason"],
    view.refused.map((r) => [r.at, r.source, r.reason]));
}

function selectTab(id) {
  clearInterval(state.ingestTimer);
  if (id === "ingest-tab") {
    showIngest();
    state.ingestTimer = setInterval(showIngest, 5000);
  }
  for (const other of document.querySelectorAll(".tab")) {
    other.classList.toggle("active", other.dataset.tab === id);
    $(other.dataset.tab).classList.toggle("hidden", other.dataset.tab !== id);
  }
}

/**
 * Saves the whole result as a CSV file: built here when the page holds every row, else streamed by
 * the server from the result it keeps open (a million rows never pass through the page's memory
 * as rows).
 */
async function download() {
  const result = state.result;
  if (!result || !result.columns) return;
  let blob;
  if (!result.more) {
    blob = new Blob([toCsv(result)], { type: "text/csv" });
  } else {
    const response = await fetch("/console/api/csv", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Timelake-Csrf": state.csrf || "" },
      body: JSON.stringify({ cursor: result.cursor }),
    });
    if (response.status !== 200) {
      let error = "HTTP " + response.status;
      try { error = (await response.json()).error || error; } catch (e) { /* not JSON */ }
      $("error").textContent = error;
      return;
    }
    try {
      blob = await response.blob();
    } catch (e) {
      $("error").textContent = "The download failed before its end (the server's log says why);"
        + " run the query again, or narrow it";
      return;
    }
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "result.csv";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function toCsv(result) {
  const quote = (value) => {
    const text = value === null ? "" : String(value);
    return /[",\n]/.test(text) ? '"' + text.replaceAll('"', '""') + '"' : text;
  };
  return [result.columns.map(quote).join(",")]
    .concat(result.rows.map((row) => row.map(quote).join(","))).join("\n") + "\n";
}

function remember(sql) {
  const history = JSON.parse(localStorage.getItem("timelake.history") || "[]")
    .filter((item) => item !== sql);
  history.unshift(sql);
  localStorage.setItem("timelake.history", JSON.stringify(history.slice(0, 50)));
  renderHistory();
}

function renderHistory() {
  const select = $("history");
  select.replaceChildren(new Option("History…", ""));
  for (const sql of JSON.parse(localStorage.getItem("timelake.history") || "[]")) {
    select.appendChild(new Option(sql.length > 80 ? sql.slice(0, 77) + "…" : sql, sql));
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("login-form").addEventListener("submit", login);
  $("logout").addEventListener("click", logout);
  $("run").addEventListener("click", run);
  if (window.CodeMirror) {
    // Highlighting, bracket matching and line numbers; Ctrl-Enter (Cmd-Enter) runs.
    state.editor = CodeMirror.fromTextArea($("sql"), {
      mode: "text/x-sql", lineNumbers: true, matchBrackets: true, indentWithTabs: false,
      extraKeys: { "Ctrl-Enter": () => run(), "Cmd-Enter": () => run() },
    });
  } else {
    $("sql").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        run();
      }
    });
  }
  $("history").addEventListener("change", () => {
    if ($("history").value) setSql($("history").value);
  });
  $("download").addEventListener("click", download);
  $("csv").addEventListener("click", () => {
    if (state.result && state.result.columns) navigator.clipboard.writeText(toCsv(state.result));
  });
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => selectTab(tab.dataset.tab));
  }
  $("page-previous").addEventListener("click", () => renderTable(state.result, state.page - 1));
  $("page-next").addEventListener("click", () => renderTable(state.result, state.page + 1));
  $("maintain").addEventListener("click", maintainPlan);
  $("cancel").addEventListener("click", () => api("cancel", {}));
  $("maintain-run").addEventListener("click", maintainRun);
  $("query-table").addEventListener("click", () => {
    setSql("SELECT * FROM " + state.table + " LIMIT 100");
    run();
    selectTab("table-tab");
  });
  start();
});

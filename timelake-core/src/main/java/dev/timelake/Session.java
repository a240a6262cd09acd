package dev.timelake;

import static java.util.Objects.requireNonNull;

import dev.timelake.catalog.LakeCatalog;
import dev.timelake.sql.SqlSession;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A SQL session: DuckDB SQL over the lake's tables, with Timelake's DDL ({@code CREATE TABLE … WITH
 * (…)}, {@code DROP TABLE}), {@code INSERT}, {@code SET timelake.<setting> = …}, {@code SHOW
 * TABLES} and {@code DESCRIBE}. Every read sees each table's current snapshot, pruned by the
 * query's time and series-key filters and deduplicated. Not thread-safe; close it when done.
 *
 * <pre>{@code
 * try (Session session = lake.newSession();
 *     QueryResult result = session.sql("SELECT device, max(value) FROM iot.readings GROUP BY ALL")) {
 *   while (result.next()) {
 *     System.out.println(result.value(0) + " " + result.value(1));
 *   }
 * }
 * }</pre>
 */
public final class Session implements AutoCloseable {
  private final SqlSession session;

  Session(LakeCatalog catalog, java.util.Optional<ClientAccess> access) {
    this.session = new SqlSession(catalog, access);
  }

  /**
   * Runs one statement. A query's rows stream from the result, which stays valid until the next
   * statement of this session; close it when done.
   */
  public QueryResult sql(String sql) {
    return new QueryResult(session.execute(sql));
  }

  /**
   * The columns a query would return, planned as it would run (dedup, routing) but not run; empty
   * for statements without rows and for those that cannot be described before they run. What the
   * PostgreSQL protocol's Describe needs.
   */
  public Optional<List<ResultColumn>> describe(String sql) {
    return session.describe(sql);
  }

  /**
   * Interrupts the statement this session is running, from another thread (a server's cancel
   * request, a timeout): it fails with an interrupt error and changes nothing. Nothing happens when
   * none runs.
   */
  public void cancel() {
    session.cancel();
  }

  /**
   * Where this session stands with respect to a transaction opened with {@code BEGIN}: inside one,
   * INSERTs and COPYs into lake tables are held until {@code COMMIT} (one snapshot per table) and
   * discarded by {@code ROLLBACK}; statements that would change the lake at once are refused.
   */
  public TransactionState transactionState() {
    return session.transactionState();
  }

  /**
   * Appends a CSV file with a header row (types from the table) to {@code table} as a write of this
   * session: committed at once, or held until {@code COMMIT} inside a transaction, or, checked,
   * held in the session's tier ({@link #holdWritesIn}) when it takes them. What a server's {@code
   * COPY … FROM STDIN} does with the client's data.
   */
  public QueryResult copyFrom(TableName table, java.nio.file.Path csv) {
    requireNonNull(csv, "csv is null");
    return copyFrom(table, CsvInput.of(csv));
  }

  /**
   * Appends a CSV input (its delimiter, the columns of a file without a header row, the name its
   * errors give it) as {@link #copyFrom(TableName, java.nio.file.Path)} does.
   */
  public QueryResult copyFrom(TableName table, CsvInput csv) {
    requireNonNull(table, "table is null");
    requireNonNull(csv, "csv is null");
    return new QueryResult(session.copyFrom(table, csv));
  }

  /** Sets a session-level setting, like {@code SET timelake.read_dedup = false}. */
  public Session set(String setting, String value) {
    session.settings().set(setting, value);
    return this;
  }

  /**
   * The session's TimeZone (a name of the IANA database such as {@code Europe/Berlin}; UTC unless a
   * statement set it), in which {@code date_trunc} buckets instants and clients show them.
   */
  public String timeZone() {
    return session.timeZone();
  }

  /**
   * {@link #timeZone()} as a Java zone, in which clients show instants; UTC for a name DuckDB knows
   * and Java does not.
   */
  public java.time.ZoneId zoneId() {
    try {
      return java.time.ZoneId.of(session.timeZone());
    } catch (java.time.DateTimeException e) {
      return java.time.ZoneOffset.UTC;
    }
  }

  /** The settings set in this session. */
  public Map<String, String> settings() {
    return session.settings().values();
  }

  /**
   * Sends this session's INSERTs of constant rows and its COPYs (of at most 100,000 rows, once
   * checked) outside a transaction to {@code tier}, which answers them once durable and commits
   * them later; the session's queries read what it holds with the committed rows ({@link
   * HeldWrites#readHeld}), and it has the tier commit what it holds before any other statement that
   * may read tables runs. What a server does with its hot tier; a write the tier cannot take (a
   * query, a table with an index granularity, a value converted only by DuckDB) is committed as
   * usual.
   */
  public Session holdWritesIn(HeldWrites tier) {
    session.holdWritesIn(requireNonNull(tier, "tier is null"));
    return this;
  }

  /** Uses {@code clock} for the insertion time of INSERT statements. */
  public Session clock(Clock clock) {
    session.clock(clock);
    return this;
  }

  @Override
  public void close() {
    session.close();
  }
}

package dev.timelake.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.Chunk;
import dev.timelake.Column;
import dev.timelake.ColumnType;
import dev.timelake.TableName;
import dev.timelake.rollup.AggregateCall;
import dev.timelake.rollup.StoredAggregate;
import dev.timelake.table.TableContract;
import dev.timelake.time.BucketGrid;
import dev.timelake.time.IntervalSet;
import dev.timelake.time.TimeInterval;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Routing decisions from shapes and candidates alone: no lake, no SQL. */
class RoutePlannerTest {
  private static final long HOUR = 3_600_000_000L;
  private static final long DAY = 24 * HOUR;
  private static final TableName RAW = TableName.parse("iot.r");
  private static final TableContract CONTRACT =
      new TableContract(
          RAW,
          List.of(
              Column.required("site", ColumnType.VARCHAR),
              Column.required("tag", ColumnType.VARCHAR),
              Column.required("time", ColumnType.TIMESTAMPTZ),
              Column.nullable("value", ColumnType.DOUBLE)),
          Optional.of("time"),
          List.of("site", "tag"),
          Chunk.DAY,
          Optional.empty(),
          Map.of("dedup", "true"));
  private static final List<String> SERIES = List.of("site", "tag");
  private static final AggregateCall MAX = AggregateCall.of("max", "value");
  private static final AggregateCall FIRST = AggregateCall.of("first_value", "value");
  private static final RawFacts TEN_DAYS = new RawFacts(CONTRACT, 1, IntervalSet.of(0, 10 * DAY));

  @Test
  void theWidestRollupAnswersFirstAndTheNextTheBucketsItLacks() {
    RouteCandidate daily =
        candidate("iot.r_1d", DAY, 100, IntervalSet.of(0, Long.MAX_VALUE).subtract(day(9)));
    RouteCandidate hourly = candidate("iot.r_1h", HOUR, 2_400, IntervalSet.of(0, Long.MAX_VALUE));
    RoutePlan plan = routed(shape(Optional.empty(), IntervalSet.all()), daily, hourly);
    assertThat(plan.rollups()).containsExactly(daily.name(), hourly.name());
    assertThat(plan.parts().get(0).intervals()).isEqualTo(IntervalSet.of(0, 9 * DAY));
    assertThat(plan.parts().get(1).intervals()).isEqualTo(day(9));
    assertThat(plan.rawIntervals().isEmpty()).isTrue();
    assertThat(plan.merged()).isTrue();
  }

  @Test
  void everyQueryBucketComesFromOnePart() {
    RouteCandidate hourly =
        candidate(
            "iot.r_1h",
            HOUR,
            2_400,
            IntervalSet.of(0, Long.MAX_VALUE).subtract(IntervalSet.of(DAY + HOUR, DAY + 2 * HOUR)));
    RoutePlan plan = routed(shape(Optional.of(BucketGrid.of(DAY, 0)), IntervalSet.all()), hourly);
    // The day with a changed hour is read from raw as a whole, not 23 hours from the rollup.
    assertThat(plan.parts().get(0).intervals())
        .isEqualTo(IntervalSet.of(0, 10 * DAY).subtract(day(1)));
    assertThat(plan.rawIntervals()).isEqualTo(day(1));
    assertThat(plan.merged()).isFalse();
  }

  @Test
  void bucketsBeforeTheRawTablesDataStayUnreadEvenWhereTheRollupKeepsThem() {
    // Retention dropped the raw table's first two days; the rollup still holds them.
    RawFacts retained = new RawFacts(CONTRACT, 1, IntervalSet.of(2 * DAY, 10 * DAY));
    RouteCandidate daily = candidate("iot.r_1d", DAY, 100, IntervalSet.of(2 * DAY, Long.MAX_VALUE));
    RoutePlan plan =
        RoutePlanner.plan(
                shape(Optional.of(BucketGrid.of(DAY, 0)), IntervalSet.all()),
                retained,
                List.of(daily))
            .plan()
            .orElseThrow();
    assertThat(plan.parts().get(0).intervals()).isEqualTo(IntervalSet.of(2 * DAY, 10 * DAY));
    assertThat(plan.rawIntervals().isEmpty()).isTrue();
  }

  @Test
  void aBucketReachingBeyondTheDataCountsAsWhole() {
    // The query starts at 05:30 and the data at 06:00: the 05:00 bucket holds only data inside.
    RawFacts late = new RawFacts(CONTRACT, 1, IntervalSet.of(6 * HOUR, 10 * DAY));
    RouteCandidate hourly = candidate("iot.r_1h", HOUR, 2_400, IntervalSet.of(0, Long.MAX_VALUE));
    QueryShape query =
        shape(Optional.of(BucketGrid.of(HOUR, 0)), IntervalSet.of(5 * HOUR + HOUR / 2, DAY));
    RoutePlan plan = RoutePlanner.plan(query, late, List.of(hourly)).plan().orElseThrow();
    assertThat(plan.parts().get(0).intervals()).isEqualTo(IntervalSet.of(6 * HOUR, DAY));
    assertThat(plan.rawIntervals().isEmpty()).isTrue();
  }

  @Test
  void theRollupBeingRefreshedIsNeverItsOwnSource() {
    RouteCandidate hourly = candidate("iot.r_1h", HOUR, 2_400, IntervalSet.of(0, Long.MAX_VALUE));
    QueryShape refresh =
        new QueryShape(
            RAW,
            List.of("site", "tag"),
            Optional.of(BucketGrid.of(HOUR, 0)),
            List.of(MAX),
            IntervalSet.of(0, DAY),
            Set.of(),
            Optional.of(hourly.name()));
    RouteDecision decision = RoutePlanner.plan(refresh, TEN_DAYS, List.of(hourly));
    assertThat(decision.isRouted()).isFalse();
    assertThat(RoutePlanner.rawOnly(refresh, TEN_DAYS, List.of()).rawIntervals())
        .isEqualTo(IntervalSet.of(0, DAY));
  }

  @Test
  void firstValueOverFewerKeysNeedsTheStoredTimeOfTheFirstReading() {
    RouteCandidate rollup =
        rollup("iot.r_1h", SERIES, HOUR, List.of(new StoredAggregate("first_v", FIRST)), 2_400);
    QueryShape bySite = query(List.of("site"), Optional.of(BucketGrid.of(DAY, 0)), FIRST, Set.of());
    RouteDecision decision = RoutePlanner.plan(bySite, TEN_DAYS, List.of(rollup));
    assertThat(decision.explanation())
        .contains("not routed: iot.r_1h: stores nothing first_value(value) can be computed from");
    QueryShape bySeries = query(SERIES, Optional.of(BucketGrid.of(DAY, 0)), FIRST, Set.of());
    assertThat(RoutePlanner.plan(bySeries, TEN_DAYS, List.of(rollup)).isRouted()).isTrue();
  }

  @Test
  void anAverageStoredWithoutACountAnswersOnlyAtItsOwnWidthAndKeys() {
    AggregateCall average = AggregateCall.of("avg", "value");
    RouteCandidate firstVersion =
        rollup("iot.r_1h", SERIES, HOUR, List.of(new StoredAggregate("avg_value", average)), 2_400);
    QueryShape hourly = query(SERIES, Optional.of(BucketGrid.of(HOUR, 0)), average, Set.of());
    assertThat(RoutePlanner.plan(hourly, TEN_DAYS, List.of(firstVersion)).isRouted()).isTrue();
    QueryShape daily = query(SERIES, Optional.of(BucketGrid.of(DAY, 0)), average, Set.of());
    assertThat(RoutePlanner.plan(daily, TEN_DAYS, List.of(firstVersion)).explanation())
        .contains(
            "not routed: iot.r_1h: stores avg(value) without what merging it needs (a rollup of"
                + " the first version): it answers only at its own width and keys");
  }

  @Test
  void filtersOnAKeyTheRollupDoesNotGroupByAreNotRouted() {
    RouteCandidate bySite =
        rollup(
            "iot.r_site_1h",
            List.of("site"),
            HOUR,
            List.of(new StoredAggregate("max_value", MAX)),
            240);
    QueryShape filtered =
        query(List.of("site"), Optional.of(BucketGrid.of(DAY, 0)), MAX, Set.of("tag"));
    assertThat(RoutePlanner.plan(filtered, TEN_DAYS, List.of(bySite)).explanation())
        .contains(
            "not routed: iot.r_site_1h: groups by (site), not by tag that the query groups or"
                + " filters by");
  }

  @Test
  void aRollupThatAnswersTheShapeButNoBucketIsNamedAsTheReason() {
    // Every hour of the ten days changed since the hourly rollup's refresh (a DELETE, say): its
    // shape answers the query, its buckets do not. The reason says so, in EXPLAIN's words, not that
    // no rollup answers the query; the rollup whose shape does not answer it is listed after.
    RouteCandidate hourly = candidate("iot.r_1h", HOUR, 2_400, IntervalSet.of(10 * DAY, DAY * 20));
    RouteCandidate bySite =
        rollup(
            "iot.r_site_1h",
            List.of("site"),
            HOUR,
            List.of(new StoredAggregate("max_value", MAX)),
            240);
    RouteDecision decision =
        RoutePlanner.plan(
            shape(Optional.of(BucketGrid.of(DAY, 0)), IntervalSet.all()),
            TEN_DAYS,
            List.of(hourly, bySite));
    assertThat(decision.isRouted()).isFalse();
    assertThat(decision.reason())
        .hasValue(
            "iot.r_1h: holds no complete bucket of 1d in the range that is unchanged since its"
                + " refresh");
    assertThat(decision.explanation())
        .containsExactly(
            "not routed: iot.r_1h: holds no complete bucket of 1d in the range that is unchanged"
                + " since its refresh",
            "not routed: iot.r_site_1h: groups by (site), not by tag that the query groups or"
                + " filters by");
  }

  @Test
  void everyRollupThatAnswersTheShapeIsNamedWithWhyItWasNotUsed() {
    AggregateCall m4 = AggregateCall.of("m4", "value");
    RouteCandidate notRefreshed = dailyNotRefreshed(new StoredAggregate("m4_value", m4));
    // 240,000 raw rows in 120,000 rows: 2 a row, where merging m4 point lists pays from 4.
    RouteCandidate narrow =
        rollup(
            "iot.r_1m", SERIES, 60_000_000L, List.of(new StoredAggregate("m4_value", m4)), 120_000);
    RouteCandidate withoutM4 =
        rollup("iot.r_1h", SERIES, HOUR, List.of(new StoredAggregate("max_value", MAX)), 2_400);
    RouteDecision decision =
        RoutePlanner.plan(
            query(SERIES, Optional.of(BucketGrid.of(DAY, 0)), m4, Set.of()),
            TEN_DAYS,
            List.of(notRefreshed, narrow, withoutM4));
    assertThat(decision.reason())
        .hasValue(
            "iot.r_1d: is not refreshed yet; iot.r_1m: holds 2.00 raw rows per row; m4(value) pays"
                + " from 4");
    assertThat(decision.explanation())
        .containsExactly(
            "not routed: " + decision.reason().orElseThrow(),
            "not routed: iot.r_1h: stores nothing m4(value) can be computed from");
  }

  @Test
  void aStoredStateIsReadAsItIsAtTheRollupsOwnWidthAndKeysWhateverItsRowsPerReading() {
    // The seed's own example: time_weighted_mean at one minute, two raw rows a row. Merging
    // time-weighted states pays from 32; reading the stored state's mean at one minute merges
    // nothing.
    AggregateCall mean =
        new AggregateCall("time_weighted_mean", Optional.of("value"), List.of("linear"));
    AggregateCall stored = AggregateCall.of("time_weighted_state", "value");
    RouteCandidate minutely =
        rollup(
            "iot.r_1m", SERIES, 60_000_000L, List.of(new StoredAggregate("twa", stored)), 120_000);
    RouteDecision sameWidth =
        RoutePlanner.plan(
            query(SERIES, Optional.of(BucketGrid.of(60_000_000L, 0)), mean, Set.of()),
            TEN_DAYS,
            List.of(minutely));
    assertThat(sameWidth.isRouted()).as(sameWidth.explanation().toString()).isTrue();
    RouteDecision coarser =
        RoutePlanner.plan(
            query(SERIES, Optional.of(BucketGrid.of(HOUR, 0)), mean, Set.of()),
            TEN_DAYS,
            List.of(minutely));
    assertThat(coarser.reason().orElseThrow()).contains("pays from 32");
  }

  @Test
  void noRollupAnswersOnlyWhenNoRollupsShapeDoes() {
    // Not refreshed and of a grid the query's is no multiple of: its shape does not answer.
    RouteCandidate notRefreshed = dailyNotRefreshed(new StoredAggregate("max_value", MAX));
    RouteDecision decision =
        RoutePlanner.plan(
            shape(Optional.of(BucketGrid.of(HOUR, 0)), IntervalSet.all()),
            TEN_DAYS,
            List.of(notRefreshed));
    assertThat(decision.explanation())
        .containsExactly(
            "not routed: no rollup of iot.r answers by (site, tag), 1h buckets, max(value), time"
                + " {[-inf, +inf)}",
            "not routed: iot.r_1d: is not refreshed yet");
  }

  @Test
  void aRangeWithoutRawDataIsNotRoutedForThatReason() {
    RouteCandidate hourly = candidate("iot.r_1h", HOUR, 2_400, IntervalSet.of(0, Long.MAX_VALUE));
    RouteDecision decision =
        RoutePlanner.plan(
            shape(Optional.of(BucketGrid.of(HOUR, 0)), IntervalSet.of(20 * DAY, 21 * DAY)),
            TEN_DAYS,
            List.of(hourly));
    assertThat(decision.explanation())
        .containsExactly(
            "not routed: iot.r has no rows in the query's time range {[1970-01-21T00:00:00Z,"
                + " 1970-01-22T00:00:00Z)}");
  }

  private static RouteCandidate rollup(
      String name, List<String> keys, long width, List<StoredAggregate> stored, long rows) {
    return new RouteCandidate(
        TableName.parse(name),
        keys,
        "bucket",
        BucketGrid.of(width, 0),
        stored,
        rows,
        (double) 240_000 / rows,
        IntervalSet.of(0, Long.MAX_VALUE),
        1,
        Optional.empty());
  }

  private static QueryShape query(
      List<String> keys, Optional<BucketGrid> grid, AggregateCall call, Set<String> filters) {
    return new QueryShape(
        RAW, keys, grid, List.of(call), IntervalSet.all(), filters, Optional.empty());
  }

  private static RoutePlan routed(QueryShape shape, RouteCandidate... candidates) {
    RouteDecision decision = RoutePlanner.plan(shape, TEN_DAYS, List.of(candidates));
    assertThat(decision.isRouted()).as("%s", decision.explanation()).isTrue();
    return decision.plan().orElseThrow();
  }

  private static QueryShape shape(Optional<BucketGrid> grid, IntervalSet time) {
    return new QueryShape(
        RAW, List.of("site", "tag"), grid, List.of(MAX), time, Set.of(), Optional.empty());
  }

  private static RouteCandidate candidate(String name, long width, long rows, IntervalSet usable) {
    return new RouteCandidate(
        TableName.parse(name),
        List.of("site", "tag"),
        "bucket",
        BucketGrid.of(width, 0),
        List.of(new StoredAggregate("max_value", MAX)),
        rows,
        (double) 240_000 / rows,
        usable,
        1,
        Optional.empty());
  }

  private static IntervalSet day(int index) {
    return IntervalSet.of(List.of(new TimeInterval(index * DAY, (index + 1) * DAY)));
  }

  /** A daily rollup iot.r_1d by the series key, storing {@code stored}, never refreshed. */
  private static RouteCandidate dailyNotRefreshed(StoredAggregate stored) {
    return new RouteCandidate(
        TableName.parse("iot.r_1d"),
        SERIES,
        "bucket",
        BucketGrid.of(DAY, 0),
        List.of(stored),
        100,
        2_400,
        IntervalSet.empty(),
        -1,
        Optional.of("is not refreshed yet"));
  }
}

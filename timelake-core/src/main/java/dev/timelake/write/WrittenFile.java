package dev.timelake.write;

/**
 * A data file an append wrote: its location, partition ordinal (0 for unpartitioned tables), row
 * count, the µs time range of its rows (0 for plain tables) and whether its rows are late: not
 * newer than everything the partition held before.
 */
record WrittenFile(
    String location, int partition, long rows, long minMicros, long maxMicros, boolean late) {}

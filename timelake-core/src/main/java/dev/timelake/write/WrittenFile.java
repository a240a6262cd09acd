package dev.timelake.write;

/**
 * A data file an append wrote: its location, partition ordinal (0 for unpartitioned tables), row
 * count and the µs time range of its rows (0 for plain tables).
 */
record WrittenFile(String location, int partition, long rows, long minMicros, long maxMicros) {}

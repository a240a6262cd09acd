package dev.timelake.rollup;

/**
 * Whether stored rows merged into one group all belong to one series (the query groups by every key
 * the rollup does) or to several (fewer keys). Rows of one series never share a bucket, so a
 * bucket's start orders them as their readings are; rows of several series do share buckets.
 */
public enum SeriesMerge {
  /** Every group holds rows of one series only. */
  WITHIN,
  /** A group may hold rows of several series in the same bucket. */
  ACROSS
}

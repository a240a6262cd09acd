/**
 * Aggregates over signals — irregularly sampled readings — that DuckDB does not have: time-weighted
 * means and integrals, M4 downsampling, gaps and approximate percentiles, each with a state that
 * merges along time (adjacent buckets of one series) into the same answer the readings give. {@link
 * dev.timelake.signal.SignalFunctions} installs them in every engine and prints them for plain
 * DuckDB.
 */
package dev.timelake.signal;

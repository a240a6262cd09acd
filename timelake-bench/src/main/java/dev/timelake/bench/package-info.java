/**
 * The IIoT benchmark's data: {@link dev.timelake.bench.IiotGenerator} simulates a plant of {@link
 * dev.timelake.bench.Scale lines × machines × tags} and appends its readings to a lake hour by
 * hour, late and resent readings included, deterministically from a seed. The model itself is SQL
 * that DuckDB runs vectorized ({@code PlantSql}); the generator only drives the appends.
 *
 * <p>The benchmark's queries and runner build on this data; a benchmark is a program, never a timed
 * unit test.
 */
package dev.timelake.bench;

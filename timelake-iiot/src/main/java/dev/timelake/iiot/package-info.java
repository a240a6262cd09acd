/**
 * The IIoT plant (the project's {@code BENCHMARK.md}): the data of {@code timelake demo} and of the
 * benchmark.
 *
 * <p>{@link dev.timelake.iiot.IiotGenerator} simulates a plant of {@link dev.timelake.iiot.Scale
 * lines × machines × tags} and appends its readings to a lake hour by hour, late and resent
 * readings included, deterministically from a seed. The model itself is SQL that DuckDB runs
 * vectorized ({@code PlantSql}); the generator only drives the appends. {@link
 * dev.timelake.iiot.PlainParquetWriter} writes the same readings as plain Parquet files instead.
 */
package dev.timelake.iiot;

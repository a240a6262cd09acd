/**
 * The IIoT benchmark (the project's {@code BENCHMARK.md}): its data and its runner.
 *
 * <p>{@link dev.timelake.bench.IiotGenerator} simulates a plant of {@link dev.timelake.bench.Scale
 * lines × machines × tags} and appends its readings to a lake hour by hour, late and resent
 * readings included, deterministically from a seed. The model itself is SQL that DuckDB runs
 * vectorized ({@code PlantSql}); the generator only drives the appends.
 *
 * <p>{@link dev.timelake.bench.BenchmarkRunner} runs the benchmark's queries ({@code
 * BenchmarkQueries}, each written once over table placeholders that {@code SqlDialect} fills) in
 * every {@link dev.timelake.bench.Configuration}, side by side: Timelake with rollup routing off
 * and on, plain DuckDB over the same data files (the engine's floor) and DuckDB removing copies
 * with {@code QUALIFY}. It compares the answers, times the loading, rollup and maintenance
 * operations, and returns a {@link dev.timelake.bench.BenchmarkReport} that renders as Markdown,
 * JSON and an SVG plot. A benchmark is a program, never a timed unit test: the tests check answers,
 * not times.
 */
package dev.timelake.bench;

/**
 * The IIoT benchmark (the project's {@code BENCHMARK.md}): its runner; {@code
 * dev.timelake.bench.cli} is {@code timelake-bench.jar}, the {@code timelake} command with the
 * {@code bench} subcommands.
 *
 * <p>The data is the plant of {@link dev.timelake.iiot.IiotGenerator} (module timelake-iiot, which
 * {@code timelake demo} also uses).
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

package dev.timelake.bench.cli;

import dev.timelake.bench.StorageBenchmark;
import dev.timelake.cli.Main;
import dev.timelake.iiot.Scale;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** The plant on a local disk and on an S3 API server, side by side. */
@Command(
    name = "storage",
    description = {
      "Measures object storage against a local disk, side by side in one run: the plant loaded"
          + " into a local warehouse and into one on an S3 API server (S3Proxy, started on"
          + " loopback, storing objects in the work folder), then daily-stats unrouted (first"
          + " query with an empty cache, then warm) and routed, maintain, and daily-stats again."
          + " Uses its own folder, not the warehouse."
    },
    footer = {"%nExample:", "  timelake bench storage --scale mini --runs 3 --work /tmp/storage"})
final class BenchStorageCommand implements Callable<Integer> {
  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(
      names = "--scale",
      paramLabel = "SCALE",
      description = "tiny, mini or small (default mini).")
  private String scale = "mini";

  @Option(
      names = "--runs",
      paramLabel = "N",
      description = "Timed runs of each warm query, after one warm-up (default 3).")
  private int runs = 3;

  @Option(
      names = "--work",
      paramLabel = "DIR",
      required = true,
      description = "An empty or missing folder for both warehouses, the S3 server and caches.")
  private Path work;

  @Override
  public Integer call() throws Exception {
    Main main = bench.main;
    StorageBenchmark.Figures figures =
        new StorageBenchmark(
                Scale.parse(scale), runs, message -> main.streams().err().println(message))
            .run(work);
    main.streams().out().print(figures.render());
    main.streams().out().flush();
    return 0;
  }
}

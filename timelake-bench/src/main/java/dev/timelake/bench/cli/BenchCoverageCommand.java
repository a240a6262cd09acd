package dev.timelake.bench.cli;

import dev.timelake.Lake;
import dev.timelake.bench.CoverageQueryBenchmark;
import dev.timelake.cli.Main;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Measures coverage and gap questions on a year of minutes. */
@Command(
    name = "coverage",
    description = {
      "Measures coverage and gap questions (Java and SQL) on the coverage of many series × a year"
          + " of minutes with random outages, attached to bench.year_bars as appends would leave"
          + " it."
    },
    footer = {
      "%nExample:",
      "  timelake --warehouse ./bench-coverage bench coverage --instruments 1000 --outages 100"
    })
final class BenchCoverageCommand implements Callable<Integer> {
  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(names = "--instruments", paramLabel = "N", description = "Series (default 1000).")
  private int instruments = 1000;

  @Option(
      names = "--outages",
      paramLabel = "N",
      description = "Gaps of 1 to 120 minutes per series (default 100).")
  private int outages = 100;

  @Option(names = "--seed", paramLabel = "N", description = "The random seed (default 42).")
  private long seed = 42;

  @Override
  public Integer call() {
    Main main = bench.main;
    try (Lake lake = main.openLake()) {
      for (String line :
          CoverageQueryBenchmark.run(
              lake,
              main.warehouse(),
              instruments,
              outages,
              seed,
              message -> main.streams().err().println(message))) {
        main.streams().out().println(line);
      }
    }
    main.streams().out().flush();
    return 0;
  }
}

package dev.timelake.bench.cli;

import dev.timelake.Lake;
import dev.timelake.cli.Main;
import dev.timelake.cli.Progress;
import dev.timelake.iiot.GenerationRecord;
import dev.timelake.iiot.GenerationResult;
import dev.timelake.iiot.IiotGenerator;
import dev.timelake.iiot.Scale;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** Generates the IIoT plant into the warehouse, or as plain Parquet files. */
@Command(
    name = "generate",
    description = {
      "Generates the IIoT benchmark's plant: iiot.tags and iiot.readings, one append per"
          + " simulated hour, late and resent readings included, deterministic from the seed.",
      "An interrupted run can be started again with the same options: hours already committed"
          + " are skipped. Scales: tiny (20 tags, 2 days), mini (100 tags, 30 days), small (1,000"
          + " tags, 30 days)."
    },
    footer = {
      "%nExamples:",
      "  timelake --warehouse ./bench-mini bench generate --scale mini",
      "  timelake bench generate --scale tiny --hours 12 --plain-parquet ./tiny-parquet"
    })
final class BenchGenerateCommand implements Callable<Integer> {
  private static final Pattern HOUR = Pattern.compile("hour (\\d+)/(\\d+)");

  @ParentCommand BenchCommand bench;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help message and exit.")
  private boolean help;

  @Option(
      names = "--scale",
      required = true,
      paramLabel = "SCALE",
      description = "tiny, mini or small.")
  private String scale;

  @Option(names = "--seed", paramLabel = "N", description = "The random seed (default 42).")
  private long seed = 42;

  @Option(
      names = "--hours",
      paramLabel = "N",
      description = "Generate only the first N hours (default: all of the scale's hours).")
  private Integer hours;

  @Option(
      names = "--plain-parquet",
      paramLabel = "DIR",
      description =
          "Write the readings as plain Parquet files into DIR (one per day of arrival, with"
              + " _ingest_ts, plus tags.parquet) instead of into the warehouse.")
  private Path plainParquet;

  @Option(
      names = "--no-auto-maintain",
      description =
          "Create iiot.readings with auto-maintain = false: every small and late file stays in"
              + " place (the state before any compaction) until `timelake maintain` runs.")
  private boolean noAutoMaintain;

  @Override
  public Integer call() {
    Main main = bench.main;
    Scale plant = Scale.parse(scale);
    IiotGenerator.Builder builder =
        IiotGenerator.builder().scale(plant).seed(seed).autoMaintain(!noAutoMaintain);
    if (hours != null) {
      builder.hours(hours);
    }
    Progress progress = main.streams().interactive() ? new Progress(main.streams().err()) : null;
    builder.progress(progressListener(main, progress));
    IiotGenerator generator = builder.build();
    String plantName =
        String.format(
            Locale.ROOT,
            "%s plant (%d tags, %d hour%s, seed %d)",
            plant.label(),
            plant.tags(),
            generator.hours(),
            generator.hours() == 1 ? "" : "s",
            seed);
    try {
      if (plainParquet != null) {
        long started = System.nanoTime();
        long written = generator.writePlainParquet(plainParquet);
        double seconds = (System.nanoTime() - started) / 1e9;
        clear(progress);
        main.streams()
            .out()
            .printf(
                Locale.ROOT,
                "Wrote the %s to %s: %,d readings in %.1f s (%,.0f readings/s)%n",
                plantName,
                plainParquet,
                written,
                seconds,
                seconds == 0 ? 0 : written / seconds);
        return 0;
      }
      try (Lake lake = main.openLake()) {
        GenerationResult result = generator.generate(lake);
        clear(progress);
        new GenerationRecord(plant, seed, generator.hours(), result).update(main.warehouse());
        main.streams()
            .out()
            .printf(
                Locale.ROOT,
                "Generated the %s in %s: %,d readings in %d hourly appends (%d already there),"
                    + " %.1f s, %,.0f readings/s%n",
                plantName,
                lake.description(),
                result.readings(),
                result.hoursAppended(),
                result.hoursSkipped(),
                result.elapsed().toMillis() / 1000.0,
                result.readingsPerSecond());
      }
      return 0;
    } finally {
      main.streams().out().flush();
    }
  }

  /** On a terminal one status line; otherwise a line per simulated day, for logs. */
  private static Consumer<String> progressListener(Main main, Progress progress) {
    if (progress != null) {
      return progress::show;
    }
    return message -> {
      Matcher hour = HOUR.matcher(message);
      if (hour.lookingAt()
          && (Integer.parseInt(hour.group(1)) % 24 == 0 || hour.group(1).equals(hour.group(2)))) {
        main.streams().out().println(message);
        main.streams().out().flush();
      }
    };
  }

  private static void clear(Progress progress) {
    if (progress != null) {
      progress.clear();
    }
  }
}

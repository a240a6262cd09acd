package dev.timelake.cli;

import dev.timelake.Lake;
import dev.timelake.RollupVerification;
import dev.timelake.TableName;
import java.security.SecureRandom;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Checks that a rollup holds what its raw table gives; exits 1 when a cell differs. */
@Command(
    name = "verify",
    description = {
      "Checks that a rollup is exact: recomputes its (keys, bucket) cells from raw data alone,"
          + " copies removed, at the raw snapshot the rollup records, and compares them with its"
          + " stored rows. A cell on one side only, or whose values differ (floating-point columns"
          + " within a relative 1e-9), is a mismatch; up to 10 are printed. Raw data committed"
          + " since the last refresh is not a mismatch. States such as m4 point lists and"
          + " percentile sketches are not compared. Exits 0 when exact, 1 otherwise."
    },
    footer = {
      "%nExamples:",
      "  timelake rollup verify iot.readings_1h",
      "  timelake rollup verify iot.readings_1h --sample 100 --seed 42"
    })
final class RollupVerifyCommand extends RollupSubcommand {
  /** The exit status of a rollup that differs from raw data. */
  static final int MISMATCHES = 1;

  @Parameters(index = "0", paramLabel = "ROLLUP", description = "The rollup (namespace.name).")
  private String name;

  @Option(
      names = "--sample",
      paramLabel = "N",
      description = "Check N buckets chosen at random, not every bucket.")
  private Integer sample;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description =
          "The seed that chooses the sampled buckets (default: a random one, printed so a run can"
              + " be repeated).")
  private Long seed;

  @Override
  int run() {
    RollupVerification.Options options =
        sample == null
            ? RollupVerification.Options.allBuckets()
            : RollupVerification.Options.sample(
                sample, seed == null ? new SecureRandom().nextLong() : seed);
    RollupVerification check;
    try (Lake lake = main().openLake()) {
      check = lake.verifyRollup(TableName.parse(name), options);
    }
    out().println(summary(check));
    if (!check.columnsNotCompared().isEmpty()) {
      out()
          .println(
              "Not compared (merged states): " + String.join(", ", check.columnsNotCompared()));
    }
    check
        .uncheckedBefore()
        .ifPresent(
            start ->
                out()
                    .println(
                        "Buckets before "
                            + start
                            + " not checked: they begin before the oldest partition both tables"
                            + " hold, so raw data may lack some of their rows"));
    if (check.isExact()) {
      return 0;
    }
    out()
        .println(
            check.mismatches() > check.examples().size()
                ? "First " + check.examples().size() + " mismatches:"
                : "Mismatches:");
    check.examples().forEach(example -> out().println("  " + example));
    return MISMATCHES;
  }

  /** E.g. {@code Verified rollup iot.r_1h against raw snapshot 123: 4,800 cells, 0 mismatches}. */
  private static String summary(RollupVerification check) {
    String sampled =
        check.options().samples()
            ? String.format(
                Locale.ROOT,
                " (%,d of %,d buckets sampled with --seed %d)",
                check.bucketsChecked(),
                check.bucketsTotal(),
                check.options().seed())
            : "";
    return String.format(
        Locale.ROOT,
        "Verified rollup %s against raw snapshot %d%s: %,d cells, %,d %s (took %d ms)",
        check.rollup(),
        check.rawSnapshot(),
        sampled,
        check.cellsChecked(),
        check.mismatches(),
        check.mismatches() == 1 ? "mismatch" : "mismatches",
        check.took().toMillis());
  }
}

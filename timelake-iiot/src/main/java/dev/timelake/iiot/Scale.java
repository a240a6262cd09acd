package dev.timelake.iiot;

import dev.timelake.TimelakeException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The size of the generated plant and how many days it reports. Every scale has five tags per
 * machine; readings average one every ~6 s per tag, less ~5 % machine downtime.
 */
public enum Scale {
  /** 20 tags over 2 days, ~0.6 M readings: tests and CI smoke runs. */
  TINY(2, 2, 5, 2),
  /** 100 tags over 30 days, ~40 M readings: quick local runs. */
  MINI(5, 4, 5, 30),
  /** 1,000 tags over 30 days, ~400 M readings: the headline figures. */
  SMALL(20, 10, 5, 30);

  private final int lines;
  private final int machinesPerLine;
  private final int tagsPerMachine;
  private final int days;

  Scale(int lines, int machinesPerLine, int tagsPerMachine, int days) {
    this.lines = lines;
    this.machinesPerLine = machinesPerLine;
    this.tagsPerMachine = tagsPerMachine;
    this.days = days;
  }

  /** Parses {@code tiny}, {@code mini} or {@code small}, in any case. */
  public static Scale parse(String text) {
    for (Scale scale : values()) {
      if (scale.label().equalsIgnoreCase(text.trim())) {
        return scale;
      }
    }
    throw TimelakeException.validation(
        "Invalid scale '%s' (expected %s)",
        text, Arrays.stream(values()).map(Scale::label).collect(Collectors.joining(", ")));
  }

  /** The lower-case name used on the command line and in reports. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Production lines of the plant. */
  public int lines() {
    return lines;
  }

  /** Machines on each line. */
  public int machinesPerLine() {
    return machinesPerLine;
  }

  /** Tags (sensors) on each machine. */
  public int tagsPerMachine() {
    return tagsPerMachine;
  }

  /** Days of readings. */
  public int days() {
    return days;
  }

  /** Machines of the plant. */
  public int machines() {
    return lines * machinesPerLine;
  }

  /** Tags of the plant. */
  public int tags() {
    return machines() * tagsPerMachine;
  }

  /** Hours of readings, one append each. */
  public int hours() {
    return days * 24;
  }

  /** The expected number of readings, before downtime: one every ~6 s per tag. */
  public long approximateReadings() {
    return (long) tags() * days * 86_400 / 6;
  }
}

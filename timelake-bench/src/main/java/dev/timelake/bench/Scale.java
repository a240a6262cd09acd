package dev.timelake.bench;

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

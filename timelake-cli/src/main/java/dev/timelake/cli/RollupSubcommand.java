package dev.timelake.cli;

import picocli.CommandLine.ParentCommand;

/** Base of the {@code rollup} subcommands: the global options, through the group. */
abstract class RollupSubcommand extends CommandBase {
  @ParentCommand RollupCommand rollup;

  @Override
  Main main() {
    return rollup.main;
  }
}

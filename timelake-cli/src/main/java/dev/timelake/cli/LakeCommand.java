package dev.timelake.cli;

import picocli.CommandLine.ParentCommand;

/** Base of the top-level subcommands: the global options through {@link Main}. */
abstract class LakeCommand extends CommandBase {
  @ParentCommand Main main;

  @Override
  Main main() {
    return main;
  }
}

package dev.timelake.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --set timelake.NAME=VALUE} after a command that opens SQL sessions, as before it: both
 * places are accepted, like {@code --warehouse}, and the later one wins for the same name.
 */
final class SessionSettingOptions {
  @Option(
      names = "--set",
      paramLabel = "timelake.NAME=VALUE",
      description =
          "A session setting for the command's SQL sessions (repeatable; also accepted before the"
              + " command), e.g. --set timelake.read_dedup=false.")
  Map<String, String> settings = new LinkedHashMap<>();
}

package dev.timelake.cli;

import static java.util.Objects.requireNonNull;

import dev.timelake.Lake;
import dev.timelake.Session;
import dev.timelake.TimelakeException;
import dev.timelake.storage.Warehouse;
import dev.timelake.table.Level;
import dev.timelake.table.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code timelake} command: global options and the list of subcommands. Each run opens the lake
 * in the warehouse folder, does one thing and closes it.
 *
 * <p>Errors: a {@link TimelakeException} prints {@code error: <message>} and exits with its {@link
 * dev.timelake.ErrorCode#exitStatus()}; usage errors exit 2; stack traces only with {@code
 * --verbose} or {@code TIMELAKE_DEBUG=1}.
 */
@Command(
    name = "timelake",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    sortOptions = false,
    description = "Timelake: an open time-series lakehouse (Apache Iceberg tables, DuckDB SQL).",
    footer = {
      "%nExample:",
      "  timelake --warehouse ./warehouse create iot.readings \\",
      "      --columns \"tag VARCHAR, time TIMESTAMPTZ, value DOUBLE\" \\",
      "      --time-column time --series-key tag",
      "  timelake import iot.readings readings.csv",
      "  timelake sql -c \"SELECT tag, max(value) FROM iot.readings GROUP BY tag\"",
      "%nEnvironment:",
      "  TIMELAKE_WAREHOUSE   the default warehouse folder",
      "  TIMELAKE_DEBUG=1     print stack traces of errors",
      "  TIMELAKE_JAVA_OPTS   JVM options (the ./timelake launcher)"
    })
public final class Main {
  static final String WAREHOUSE_VARIABLE = "TIMELAKE_WAREHOUSE";

  /** Every subcommand, in the order {@code timelake --help} lists them. */
  static final List<Class<?>> SUBCOMMANDS =
      List.of(
          DemoCommand.class,
          CreateCommand.class,
          ImportCommand.class,
          SqlCommand.class,
          LatestCommand.class,
          CoverageCommand.class,
          GapsCommand.class,
          InfoCommand.class,
          LsCommand.class,
          AlterCommand.class,
          DropCommand.class,
          RollbackCommand.class,
          SettingsCommand.class,
          MaintainCommand.class,
          OptimizeCommand.class,
          RollupCommand.class,
          DuckdbCommand.class,
          FunctionsCommand.class,
          ServeCommand.class,
          HashPasswordCommand.class,
          BenchCommand.class,
          CommandLine.HelpCommand.class);

  static final String DEBUG_VARIABLE = "TIMELAKE_DEBUG";

  private final Streams streams;
  private final Map<String, String> environment;

  @Option(
      names = "--warehouse",
      paramLabel = "DIR|s3://BUCKET/PREFIX",
      scope = ScopeType.INHERIT,
      description =
          "The warehouse: a folder, created on first use, or a prefix on S3 or an S3-compatible"
              + " store, which needs a shared catalog (default: $TIMELAKE_WAREHOUSE, else"
              + " warehouse in the current folder).")
  private String warehouse;

  @Option(
      names = "--catalog",
      paramLabel = "KEY=VALUE",
      scope = ScopeType.INHERIT,
      description =
          "An Iceberg catalog or storage property, e.g. --catalog uri=jdbc:postgresql://db/lake"
              + " --catalog jdbc.user=lake, or for S3 s3.endpoint=http://minio:9000,"
              + " s3.access-key-id=…, timelake.cache-max-size=20GB (repeatable; over those of the"
              + " warehouse's timelake-catalog.properties; default: the embedded catalog).")
  private Map<String, String> catalog = new LinkedHashMap<>();

  @Option(
      names = "--set",
      paramLabel = "timelake.NAME=VALUE",
      description =
          "A session setting for every SQL session the command opens (repeatable; sql, latest and"
              + " demo also accept it after the command).")
  private Map<String, String> sessionSettings = new LinkedHashMap<>();

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "Print stack traces of errors (also: TIMELAKE_DEBUG=1).")
  private boolean verbose;

  /** A command reading and writing {@code streams}, with {@code environment} as its variables. */
  public Main(Streams streams, Map<String, String> environment) {
    this.streams = requireNonNull(streams, "streams is null");
    this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
  }

  public static void main(String[] args) {
    Streams streams = Streams.system();
    int status = new Main(streams, System.getenv()).commandLineFor(args, List.of()).execute(args);
    streams.out().flush();
    streams.err().flush();
    System.exit(status);
  }

  /** A picocli command line for this command, writing to its streams and mapping errors. */
  public CommandLine commandLine() {
    return commandLine(List.of(), null);
  }

  /**
   * A command line to run {@code args}: with only the subcommand they name, since picocli builds
   * each subcommand's model by reflection when it is added (0.1–0.2 s for all of them, at every
   * start); with every one for help, a usage error or no subcommand. {@code extensions} are further
   * subcommands, each in place of the one of the same name ({@code timelake-bench.jar} puts the
   * benchmark in place of the {@code bench} pointer).
   */
  public CommandLine commandLineFor(String[] args, List<Object> extensions) {
    String name = subcommandName(args);
    // help names other subcommands.
    return commandLine(extensions, "help".equals(name) ? null : name);
  }

  private CommandLine commandLine(List<Object> extensions, String only) {
    CommandLine commandLine = new CommandLine(this);
    boolean known =
        only != null
            && (SUBCOMMANDS.stream().anyMatch(type -> nameOf(type).equals(only))
                || extensions.stream().anyMatch(e -> nameOf(e.getClass()).equals(only)));
    for (Class<?> type : SUBCOMMANDS) {
      boolean extended =
          extensions.stream().anyMatch(e -> nameOf(e.getClass()).equals(nameOf(type)));
      if (!extended && (!known || nameOf(type).equals(only))) {
        commandLine.addSubcommand(type);
      }
    }
    for (Object extension : extensions) {
      if (!known || nameOf(extension.getClass()).equals(only)) {
        commandLine.addSubcommand(extension);
      }
    }
    commandLine.setOut(new PrintWriter(streams.out(), true, StandardCharsets.UTF_8));
    commandLine.setErr(new PrintWriter(streams.err(), true, StandardCharsets.UTF_8));
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setUsageHelpAutoWidth(true);
    commandLine.registerConverter(OutputFormat.class, Main::format);
    commandLine.setExecutionExceptionHandler(this::handle);
    return commandLine;
  }

  private static String nameOf(Class<?> type) {
    return type.getAnnotation(Command.class).name();
  }

  /** The subcommand {@code args} name: the first argument not a global option or its value. */
  static String subcommandName(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--warehouse") || arg.equals("--catalog") || arg.equals("--set")) {
        i++;
      } else if (!arg.startsWith("-")) {
        return arg;
      }
    }
    return null;
  }

  private static OutputFormat format(String text) {
    try {
      return OutputFormat.parse(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }

  private int handle(Exception exception, CommandLine command, ParseResult parseResult) {
    streams.out().flush();
    if (exception instanceof TimelakeException timelake) {
      streams.err().println("error: " + timelake.getMessage());
      printStackTraceIfAsked(exception);
      return timelake.code().exitStatus();
    }
    streams.err().println("error: " + describe(exception));
    printStackTraceIfAsked(exception);
    return 1;
  }

  private static String describe(Throwable exception) {
    if (exception instanceof UncheckedIOException io) {
      exception = io.getCause();
    }
    String message = exception.getMessage();
    return message == null || message.isBlank() ? exception.getClass().getSimpleName() : message;
  }

  private void printStackTraceIfAsked(Exception exception) {
    if (verbose || "1".equals(environment.get(DEBUG_VARIABLE))) {
      for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
        if (cause instanceof dev.timelake.QueryFailedException failed
            && failed.statement().isPresent()) {
          streams.err().println("in statement: " + failed.statement().get());
          break;
        }
      }
      exception.printStackTrace(streams.err());
    }
  }

  /** The environment variables the command runs with. */
  Map<String, String> environment() {
    return environment;
  }

  /** Where the command reads and writes. */
  public Streams streams() {
    return streams;
  }

  /** The warehouse: the option, else $TIMELAKE_WAREHOUSE, else ./warehouse. */
  String warehouseLocation() {
    if (warehouse != null) {
      return warehouse;
    }
    String fromEnvironment = environment.get(WAREHOUSE_VARIABLE);
    return fromEnvironment == null || fromEnvironment.isBlank() ? "warehouse" : fromEnvironment;
  }

  /**
   * The warehouse folder, for commands that need one on this machine (the benchmarks, say).
   *
   * @throws ValidationException for a warehouse on object storage
   */
  public Path warehouse() {
    Warehouse parsed = Warehouse.parse(warehouseLocation());
    return parsed
        .folder()
        .orElseThrow(
            () ->
                TimelakeException.validation(
                    "Cannot use warehouse %s here: this command needs a local folder", parsed));
  }

  /** The {@code --catalog} properties given, naming a shared catalog (empty: the folder's own). */
  Map<String, String> catalogProperties() {
    return Map.copyOf(catalog);
  }

  /** Opens the lake; checks the {@code --set} settings first so a typo fails before any work. */
  public Lake openLake() {
    return openLake(Map.of());
  }

  /**
   * Opens the lake after checking the {@code --set} settings given before the command and {@code
   * commandSettings}, those given after it.
   */
  Lake openLake(Map<String, String> commandSettings) {
    sessionSettings(commandSettings)
        .forEach((name, value) -> Settings.check(name, value, Level.SESSION));
    return Lake.open(warehouseLocation(), catalog);
  }

  /** A new session with the settings given before the command, then {@code commandSettings}. */
  Session openSession(Lake lake, Map<String, String> commandSettings) {
    Session session = lake.newSession();
    try {
      sessionSettings(commandSettings).forEach(session::set);
      return session;
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  private Map<String, String> sessionSettings(Map<String, String> commandSettings) {
    Map<String, String> all = new LinkedHashMap<>(sessionSettings);
    all.putAll(commandSettings);
    return all;
  }

  /** Reads the version from the resource Maven filters at build time. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          properties.load(in);
        }
      }
      return new String[] {"timelake " + properties.getProperty("version", "(development)")};
    }
  }
}

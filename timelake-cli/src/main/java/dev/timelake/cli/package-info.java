/**
 * The {@code timelake} command line: one picocli command class per subcommand, all listed in {@link
 * dev.timelake.cli.Main}, plus the SQL shell and the output formats.
 *
 * <p>Every subcommand extends {@code LakeCommand}: it reads the global options ({@code
 * --warehouse}, {@code --set}, {@code --verbose}) from {@code Main}, opens the lake for the length
 * of one command and writes to the injected {@code Streams}, so tests run commands in-process.
 * Failures are thrown as {@link dev.timelake.TimelakeException}; {@code Main} prints {@code error:
 * <message>} and exits with the error code's status (usage errors: 2).
 *
 * <p>Rows print through a {@code RowPrinter}: an aligned table, CSV (RFC 4180), JSON Lines or
 * Markdown. {@code Values} decides how each Java value is spelled, e.g. timestamps with time zone
 * as ISO-8601 instants in UTC. The shell ({@code Shell}) reads statements ending with {@code ;}
 * with JLine at a terminal, or from stdin when piped; {@code StatementSplitter} finds the
 * semicolons outside quotes and comments.
 *
 * <p>To add a subcommand (such as {@code demo} or {@code bench}): write a class extending {@code
 * LakeCommand} with a {@code @Command} annotation carrying a description and an example footer, and
 * add it to the {@code subcommands} list of {@code Main}.
 */
package dev.timelake.cli;

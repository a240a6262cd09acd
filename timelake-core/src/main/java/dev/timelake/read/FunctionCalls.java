package dev.timelake.read;

import java.util.function.Consumer;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.Statement;

/** Every function call of a statement, in every clause and subquery. */
public final class FunctionCalls {
  private FunctionCalls() {}

  /**
   * Offers each function call of {@code statement} to {@code visitor}, which may change it, and
   * prints the statement as changed.
   */
  public static String rewrite(Statement statement, Consumer<Function> visitor) {
    return SyntaxPrinter.print(
        statement,
        function -> {
          visitor.accept(function);
          return false;
        },
        java.util.Map.of());
  }
}

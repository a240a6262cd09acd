package dev.timelake.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.timelake.engine.StatementParser;
import java.util.Map;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.PlainSelect;
import org.junit.jupiter.api.Test;

/**
 * The renderer prints a table node the planner gave a relation as that relation, with the node's
 * alias, and leaves the tree as it was: the node keeps its name for whatever reads the tree next.
 */
class SyntaxPrinterTest {

  @Test
  void aNodeWithARelationPrintsAsItAndKeepsItsName() throws Exception {
    PlainSelect select =
        (PlainSelect) StatementParser.parse("SELECT r.v FROM iot.r AS r JOIN iot.s ON r.k = s.k");
    Table first = (Table) select.getFromItem();

    String printed = SyntaxPrinter.print(select, call -> false, Map.of(first, "SELECT 1 AS v"));

    assertThat(printed).isEqualTo("SELECT r.v FROM (SELECT 1 AS v) AS r JOIN iot.s ON r.k = s.k");
    assertThat(first.getFullyQualifiedName()).isEqualTo("iot.r");
  }

  @Test
  void aTreePrintedWithRelationsPrintsAsBeforeAfterwards() throws Exception {
    String sql = "SELECT r.v FROM iot.r AS r WHERE r.k = 'a.b'";
    PlainSelect select = (PlainSelect) StatementParser.parse(sql);
    Map<Table, String> relations =
        Map.of(
            (Table) select.getFromItem(),
            "SELECT * FROM read_parquet(['/w/iot/r/data/x.parquet']) WHERE \"time\" > 1.5");

    String once = SyntaxPrinter.print(select, call -> false, relations);
    String twice = SyntaxPrinter.print(select, call -> false, relations);

    assertThat(twice).isEqualTo(once);
    assertThat(SyntaxPrinter.print(select, call -> false, Map.of())).isEqualTo(sql);
  }

  @Test
  void onlyTheVeryNodeGivenPrintsAsTheRelation() throws Exception {
    PlainSelect select = (PlainSelect) StatementParser.parse("SELECT * FROM iot.r, iot.r AS again");
    Table first = (Table) select.getFromItem();

    assertThat(SyntaxPrinter.print(select, call -> false, Map.of(first, "SELECT 2")))
        .isEqualTo("SELECT * FROM (SELECT 2), iot.r AS again");
  }
}

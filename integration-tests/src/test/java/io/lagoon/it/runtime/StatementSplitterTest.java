package io.lagoon.it.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the SQL shell cuts its input into statements. */
class StatementSplitterTest {

  private static List<String> split(String input) {
    SqlShell.StatementSplitter s = new SqlShell.StatementSplitter();
    List<String> out = new ArrayList<>();
    for (char c : input.toCharArray()) {
      String stmt = s.accept(c);
      if (stmt != null) out.add(stmt.trim());
    }
    String last = s.finish();
    if (last != null) out.add(last.trim());
    return out;
  }

  @Test
  void splitsAtSemicolonsAndKeepsALastUnterminatedStatement() {
    assertEquals(List.of("SELECT 1", "SELECT 2", "SELECT 3"), split("SELECT 1; SELECT 2;\n;;SELECT 3"));
  }

  @Test
  void semicolonsInQuotesAndBackticksDoNotSplit() {
    assertEquals(List.of("SELECT 'a;b', \"c;d\", `e;f`", "SELECT 'it\\'s;'"),
        split("SELECT 'a;b', \"c;d\", `e;f`; SELECT 'it\\'s;';"));
  }

  @Test
  void commentsAreDroppedWithTheirSemicolons() {
    assertEquals(List.of("SELECT 1", "SELECT   2"),
        split("-- first; statement\nSELECT 1; /* a; b */\nSELECT /* x */ 2; -- trailing; comment"));
  }

  @Test
  void dashesAndSlashesInsideStringsAreText() {
    assertEquals(List.of("SELECT '--x', '/*y*/'"), split("SELECT '--x', '/*y*/';"));
  }

  @Test
  void blankInputHasNoStatements() {
    assertEquals(List.of(), split("  \n ; -- only a comment\n"));
  }
}

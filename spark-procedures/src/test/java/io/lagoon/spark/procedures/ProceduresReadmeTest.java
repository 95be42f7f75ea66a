package io.lagoon.spark.procedures;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README lists every procedure with its arguments, exactly as the procedure declares them. */
class ProceduresReadmeTest {
  @Test
  void everyProcedureIsInTheReadmeWithItsArguments() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    StringBuilder missing = new StringBuilder();
    for (Procedure p : Procedures.all()) {
      if (!readme.contains("`" + p.form() + "`")) missing.append("\n| `").append(p.form()).append("` | ").append(p.description()).append(" |");
    }
    assertTrue(missing.length() == 0, "README.md lacks these procedure lines:" + missing);
  }
}

package io.lagoon.spark.procedures;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** Every procedure by its (Paimon) name. */
public final class Procedures {
  private static final Map<String, Supplier<Procedure>> ALL = new LinkedHashMap<>();

  static {
    add(CreateTagProcedure::new);
    add(CreateTagFromTimestampProcedure::new);
    add(DeleteTagProcedure::new);
    add(RenameTagProcedure::new);
    add(ReplaceTagProcedure::new);
    add(ExpireTagsProcedure::new);
    add(RollbackProcedure::new);
    add(RollbackToTimestampProcedure::new);
    add(ExpireSnapshotsProcedure::new);
    add(RemoveOrphanFilesProcedure::new);
    add(CompactProcedure::new);
    add(RewriteFileIndexProcedure::new);
    add(CreateBranchProcedure::new);
    add(DeleteBranchProcedure::new);
    add(FastForwardProcedure::new);
    add(ResetConsumerProcedure::new);
    add(ClearConsumersProcedure::new);
  }

  private Procedures() {
  }

  private static void add(Supplier<Procedure> p) {
    ALL.put(p.get().name(), p);
  }

  /** Every procedure, by name. */
  public static List<Procedure> all() {
    return names().stream().map(Procedures::get).toList();
  }

  public static List<String> names() {
    return ALL.keySet().stream().sorted().toList();
  }

  public static Procedure get(String name) {
    Supplier<Procedure> p = ALL.get(name.toLowerCase(Locale.ROOT));
    if (p == null) {
      throw new IllegalArgumentException("Unknown procedure sys." + name + "; the procedures are " + names());
    }
    return p.get();
  }
}

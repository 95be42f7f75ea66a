package io.lagoon.spark.extensions;

import io.lagoon.spark.read.MetadataColumns;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.MergeRows;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import scala.collection.JavaConverters;

/**
 * A copy-on-write MERGE carries each target row's {@code _file} (the data file's path) through its
 * join and its row merge, only for Spark's group filter to find the files with matches. When the
 * rewrite's tasks find them instead ({@link MergeFilesInTasks}) nothing reads it, yet every row of
 * every rewritten file is copied with it two or three times, a path longer than the row's data.
 * This drops it from the target side, the inserted rows and the merge's outputs.
 */
final class MergeWithoutFilePaths {
  /** Spark's attribute metadata key of a metadata column. */
  private static final String METADATA_COLUMN = "__metadata_col";

  private MergeWithoutFilePaths() {
  }

  /**
   * The position of {@code _file} in the merge's output when it can be dropped: only its own
   * position of each kept row's output reads it, no clause condition does (Spark 3.5 cannot
   * resolve such a MERGE today; the check keeps this right if a later one can); -1 otherwise.
   */
  static int droppable(MergeRows merge) {
    int index = -1;
    List<Attribute> output = list(merge.output());
    for (int i = 0; i < output.size(); i++) if (isFilePath(output.get(i))) index = index < 0 ? i : -2;
    if (index < 0) return -1;
    List<MergeRows.Instruction> all = new ArrayList<>(list(merge.matchedInstructions()));
    all.addAll(list(merge.notMatchedInstructions()));
    all.addAll(list(merge.notMatchedBySourceInstructions()));
    for (MergeRows.Instruction in : all) {
      if (in instanceof MergeRows.Discard) {
        if (readsFilePath(((MergeRows.Discard) in).condition())) return -1;
      } else if (in instanceof MergeRows.Keep) {
        MergeRows.Keep keep = (MergeRows.Keep) in;
        if (readsFilePath(keep.condition())) return -1;
        List<Expression> out = list(keep.output());
        if (out.size() != output.size()) return -1;
        for (int i = 0; i < out.size(); i++) if (i != index && readsFilePath(out.get(i))) return -1;
      } else {
        return -1; // Split is for delta writes, not copy-on-write
      }
    }
    return index;
  }

  /** The merge with {@code _file} (at {@code index}) dropped from its outputs, over {@code child}. */
  static MergeRows without(MergeRows merge, int index, LogicalPlan child) {
    List<Attribute> output = new ArrayList<>(list(merge.output()));
    output.remove(index);
    return new MergeRows(merge.isSourceRowPresent(), merge.isTargetRowPresent(), without(merge.matchedInstructions(), index),
        without(merge.notMatchedInstructions(), index), without(merge.notMatchedBySourceInstructions(), index),
        merge.checkCardinality(), seq(output), child);
  }

  /** The target side without its {@code _file} column; itself when it has none. */
  static LogicalPlan withoutFilePath(LogicalPlan target) {
    List<NamedExpression> kept = new ArrayList<>();
    for (Attribute a : list(target.output())) if (!isFilePath(a)) kept.add(a);
    return kept.size() == target.output().size() ? target : new Project(seq(kept), target);
  }

  static boolean isFilePath(Attribute a) {
    return a.name().equals(MetadataColumns.FILE) && a.metadata().contains(METADATA_COLUMN);
  }

  private static boolean readsFilePath(Expression e) {
    scala.collection.Iterator<Attribute> refs = e.references().iterator();
    while (refs.hasNext()) if (isFilePath(refs.next())) return true;
    return false;
  }

  private static scala.collection.Seq<MergeRows.Instruction> without(scala.collection.Seq<MergeRows.Instruction> in,
                                                                     int index) {
    List<MergeRows.Instruction> out = new ArrayList<>();
    for (MergeRows.Instruction i : list(in)) {
      if (i instanceof MergeRows.Keep) {
        List<Expression> exprs = new ArrayList<>(list(((MergeRows.Keep) i).output()));
        exprs.remove(index);
        out.add(new MergeRows.Keep(((MergeRows.Keep) i).condition(), seq(exprs)));
      } else {
        out.add(i);
      }
    }
    return seq(out);
  }

  private static <T> List<T> list(scala.collection.Seq<T> seq) {
    return new ArrayList<>(JavaConverters.seqAsJavaListConverter(seq).asJava());
  }

  private static <T> scala.collection.Seq<T> seq(List<T> list) {
    return JavaConverters.asScalaBuffer(new ArrayList<>(list)).toSeq();
  }
}

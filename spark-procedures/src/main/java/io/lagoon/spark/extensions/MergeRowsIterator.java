package io.lagoon.spark.extensions;

import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.BasePredicate;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.expressions.codegen.GeneratePredicate$;
import org.apache.spark.sql.catalyst.plans.logical.MergeRows;
import org.apache.spark.sql.errors.QueryExecutionErrors;
import org.roaringbitmap.longlong.Roaring64Bitmap;
import scala.collection.JavaConverters;
import scala.collection.Seq;

/**
 * The rows a MERGE writes, from the rows of its join: per joined row, the first clause of its kind
 * (matched, not matched, not matched by source) whose condition holds decides whether it is kept,
 * dropped or split in two, as Spark's MERGE defines it. A plain loop: Spark 3.5's own operator
 * leaves its clause loop by throwing a control exception for every row, which costs more than the
 * rest of the work on a rewrite where nearly every row is carried over.
 */
final class MergeRowsIterator implements Iterator<InternalRow> {
  /** What to do with a row once a clause's condition holds. */
  private enum Kind { KEEP, DISCARD, SPLIT }

  /** What each task compiles: the presence tests, the clauses of each kind, the joined rows' columns. */
  static final class Plan implements Serializable {
    private static final long serialVersionUID = 1L;
    final Expression sourcePresent;
    final Expression targetPresent;
    final List<MergeRows.Instruction> matched;
    final List<MergeRows.Instruction> notMatched;
    final List<MergeRows.Instruction> notMatchedBySource;
    /** Ordinal of the target's row id in the joined rows, or -1 when no cardinality check applies. */
    final int rowId;
    final Seq<Attribute> input;

    Plan(Expression sourcePresent, Expression targetPresent, List<MergeRows.Instruction> matched,
         List<MergeRows.Instruction> notMatched, List<MergeRows.Instruction> notMatchedBySource, int rowId,
         Seq<Attribute> input) {
      this.sourcePresent = sourcePresent;
      this.targetPresent = targetPresent;
      this.matched = matched;
      this.notMatched = notMatched;
      this.notMatchedBySource = notMatchedBySource;
      this.rowId = rowId;
      this.input = input;
    }
  }

  /** One clause, compiled. */
  private static final class Clause {
    final Kind kind;
    final BasePredicate condition;
    final UnsafeProjection row;
    final UnsafeProjection extraRow;
    /** For a kept row that is the joined row's leading columns (a carried-over target row): a view of them, else null. */
    final UnsafeRow leading;

    Clause(MergeRows.Instruction instruction, Seq<Attribute> input, int partition) {
      this.condition = predicate(instruction.condition(), input, partition);
      if (instruction instanceof MergeRows.Keep) {
        kind = Kind.KEEP;
        row = projection(((MergeRows.Keep) instruction).output(), input, partition);
        extraRow = null;
        leading = leadingColumns(((MergeRows.Keep) instruction).output(), input);
      } else if (instruction instanceof MergeRows.Split) {
        kind = Kind.SPLIT;
        row = projection(((MergeRows.Split) instruction).output(), input, partition);
        extraRow = projection(((MergeRows.Split) instruction).otherOutput(), input, partition);
        leading = null;
      } else if (instruction instanceof MergeRows.Discard) {
        kind = Kind.DISCARD;
        row = null;
        extraRow = null;
        leading = null;
      } else {
        throw new IllegalStateException("unknown MERGE instruction " + instruction);
      }
    }
  }

  private final Iterator<InternalRow> joined;
  private final BasePredicate sourcePresent;
  private final BasePredicate targetPresent;
  private final Clause[] matched;
  private final Clause[] notMatched;
  private final Clause[] notMatchedBySource;
  private final int rowId;
  private final Roaring64Bitmap matchedRowIds;
  private InternalRow next;
  private InternalRow extra;

  MergeRowsIterator(Plan plan, int partition, Iterator<InternalRow> joined) {
    this.joined = joined;
    this.sourcePresent = predicate(plan.sourcePresent, plan.input, partition);
    this.targetPresent = predicate(plan.targetPresent, plan.input, partition);
    this.matched = clauses(plan.matched, plan.input, partition);
    this.notMatched = clauses(plan.notMatched, plan.input, partition);
    this.notMatchedBySource = clauses(plan.notMatchedBySource, plan.input, partition);
    this.rowId = plan.rowId;
    this.matchedRowIds = rowId >= 0 ? new Roaring64Bitmap() : null;
  }

  @Override
  public boolean hasNext() {
    if (next != null) return true;
    if (extra != null) {
      next = extra;
      extra = null;
      return true;
    }
    while (joined.hasNext()) {
      next = merge(joined.next());
      if (next != null) return true;
    }
    return false;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) throw new NoSuchElementException();
    InternalRow out = next;
    next = null;
    return out;
  }

  /** The row written for one joined row, or null when none is; a split leaves its second row in {@link #extra}. */
  private InternalRow merge(InternalRow row) {
    boolean source = sourcePresent.eval(row);
    boolean target = targetPresent.eval(row);
    if (source && target) {
      if (matchedRowIds != null) checkCardinality(row.getLong(rowId));
      return apply(matched, row);
    }
    if (source) return apply(notMatched, row);
    if (target) return apply(notMatchedBySource, row);
    return null;
  }

  /** A target row matched by a second source row: Spark's error, as its own operator raises it. */
  private void checkCardinality(long id) {
    if (matchedRowIds.contains(id)) throw QueryExecutionErrors.mergeCardinalityViolationError();
    matchedRowIds.addLong(id);
  }

  private InternalRow apply(Clause[] clauses, InternalRow row) {
    for (Clause c : clauses) {
      if (!c.condition.eval(row)) continue;
      switch (c.kind) {
        case KEEP:
          if (c.leading != null && row instanceof UnsafeRow) {
            // No copy: the joined row's leading fields read as a row of just those fields.
            UnsafeRow joined = (UnsafeRow) row;
            c.leading.pointTo(joined.getBaseObject(), joined.getBaseOffset(), joined.getSizeInBytes());
            return c.leading;
          }
          return c.row.apply(row);
        case SPLIT:
          extra = c.extraRow.apply(row);
          return c.row.apply(row);
        default:
          return null;
      }
    }
    return null;
  }

  /**
   * A reusable row of {@code output.size()} fields when the output is the first columns of the
   * joined rows in order, and a row of that many fields has the joined row's null-bit width: an
   * unsafe row's fixed slots and variable-length offsets then sit where the joined row has them.
   */
  private static UnsafeRow leadingColumns(Seq<Expression> output, Seq<Attribute> input) {
    List<Expression> out = JavaConverters.seqAsJavaList(output);
    List<Attribute> in = JavaConverters.seqAsJavaList(input);
    if (out.isEmpty() || out.size() > in.size()) return null;
    if (UnsafeRow.calculateBitSetWidthInBytes(out.size()) != UnsafeRow.calculateBitSetWidthInBytes(in.size())) {
      return null;
    }
    for (int i = 0; i < out.size(); i++) {
      if (!(out.get(i) instanceof Attribute) || !((Attribute) out.get(i)).exprId().equals(in.get(i).exprId())) return null;
    }
    return new UnsafeRow(out.size());
  }

  private static Clause[] clauses(List<MergeRows.Instruction> instructions, Seq<Attribute> input, int partition) {
    Clause[] out = new Clause[instructions.size()];
    for (int i = 0; i < out.length; i++) out[i] = new Clause(instructions.get(i), input, partition);
    return out;
  }

  private static BasePredicate predicate(Expression e, Seq<Attribute> input, int partition) {
    BasePredicate p = (BasePredicate) GeneratePredicate$.MODULE$.generate(e, input);
    p.initialize(partition);
    return p;
  }

  private static UnsafeProjection projection(Seq<Expression> exprs, Seq<Attribute> input, int partition) {
    UnsafeProjection p = UnsafeProjection.create(exprs, input);
    p.initialize(partition);
    return p;
  }

  static <T> List<T> list(Seq<T> seq) {
    return List.copyOf(JavaConverters.seqAsJavaList(seq));
  }
}

package io.lagoon.core.io;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeRoot;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Paimon stores a timestamp column by its declared precision: up to 3 as INT64 millis, up to 6 as
 * INT64 micros, above 6 as INT96 (adjusted to UTC only WITH LOCAL TIME ZONE). Spark's schema
 * converter knows no precision and makes every timestamp INT64 micros, so this rewrites its
 * timestamp leaves, nested ones included, leaving every other node (ids, lists, maps) as it is.
 */
final class ParquetTimestampLayout {
  private ParquetTimestampLayout() {}

  /** How a stored value relates to Spark's epoch microseconds. */
  enum Unit { MILLIS, MICROS, INT96 }

  static Unit unitOf(int precision) {
    if (precision <= 3) return Unit.MILLIS;
    return precision <= 6 ? Unit.MICROS : Unit.INT96;
  }

  /** Spark's schema for these fields (same order), with Paimon's timestamp layout. */
  static MessageType apply(MessageType spark, List<DataField> fields) {
    if (spark.getFieldCount() != fields.size()) {
      throw new IllegalArgumentException("Parquet schema has " + spark.getFieldCount() + " fields, table " + fields.size());
    }
    List<Type> out = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) out.add(rewrite(spark.getType(i), fields.get(i).type()));
    return new MessageType(spark.getName(), out);
  }

  private static Type rewrite(Type t, PaimonType p) {
    switch (p.root()) {
      case TIMESTAMP: case TIMESTAMP_LTZ:
        return timestamp(t.asPrimitiveType(), p);
      case ARRAY:
        // LIST { repeated group list { element } }
        return withChild(t.asGroupType(), rewriteOnly(t.asGroupType().getType(0).asGroupType(), p.element(), null));
      case MAP:
        // MAP { repeated group key_value { key, value } }
        return withChild(t.asGroupType(), rewriteOnly(t.asGroupType().getType(0).asGroupType(), p.key(), p.value()));
      case MULTISET:
        return withChild(t.asGroupType(), rewriteOnly(t.asGroupType().getType(0).asGroupType(), p.element(), null));
      case ROW: {
        GroupType g = t.asGroupType();
        List<Type> children = new ArrayList<>();
        for (int i = 0; i < g.getFieldCount(); i++) children.add(rewrite(g.getType(i), p.fields().get(i).type()));
        return g.withNewFields(children);
      }
      default:
        return t;
    }
  }

  private static GroupType withChild(GroupType g, Type child) {
    return g.withNewFields(child);
  }

  /** The repeated group of a list or map with its first (and second, if given) child rewritten. */
  private static GroupType rewriteOnly(GroupType repeated, PaimonType first, PaimonType second) {
    List<Type> children = new ArrayList<>(repeated.getFields());
    children.set(0, rewrite(children.get(0), first));
    if (second != null) children.set(1, rewrite(children.get(1), second));
    return repeated.withNewFields(children);
  }

  private static Type timestamp(PrimitiveType t, PaimonType p) {
    boolean utc = p.root() == TypeRoot.TIMESTAMP_LTZ;
    Types.PrimitiveBuilder<PrimitiveType> b;
    switch (unitOf(p.precision())) {
      case MILLIS:
        b = Types.primitive(PrimitiveTypeName.INT64, t.getRepetition())
            .as(LogicalTypeAnnotation.timestampType(utc, TimeUnit.MILLIS));
        break;
      case MICROS:
        b = Types.primitive(PrimitiveTypeName.INT64, t.getRepetition())
            .as(LogicalTypeAnnotation.timestampType(utc, TimeUnit.MICROS));
        break;
      default:
        // INT96 carries no annotation: readers take it as a timestamp by its physical type.
        b = Types.primitive(PrimitiveTypeName.INT96, t.getRepetition());
    }
    if (t.getId() != null) b.id(t.getId().intValue());
    return b.named(t.getName());
  }
}

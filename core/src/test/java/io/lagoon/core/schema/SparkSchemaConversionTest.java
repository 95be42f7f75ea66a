package io.lagoon.core.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lagoon.core.types.DataField;
import io.lagoon.core.types.SparkTypes;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Spark schemas of CREATE TABLE become schema-file fields, and schema-file fields become Spark's. */
class SparkSchemaConversionTest {

  private static List<DataField> fromDdl(String ddl) {
    // Spark replaces CHAR/VARCHAR with STRING plus metadata before a catalog sees the schema.
    StructType spark = CharVarcharUtils.replaceCharVarcharWithStringInSchema(StructType.fromDDL(ddl));
    return SparkTypes.fromSpark(spark, new AtomicInteger(-1));
  }

  private static String types(List<DataField> fields) {
    StringBuilder sb = new StringBuilder();
    for (DataField f : fields) sb.append(f.id()).append(':').append(f.name()).append(' ').append(f.type()).append("; ");
    return sb.toString();
  }

  @Test
  void charAndVarcharKeepTheirLengthAlsoNested() {
    List<DataField> f = fromDdl("c CHAR(5), v VARCHAR(10), a ARRAY<CHAR(3)>, s STRUCT<x: VARCHAR(2)>, m MAP<STRING, VARCHAR(4)>");
    assertEquals("0:c CHAR(5); 1:v VARCHAR(10); 2:a ARRAY<CHAR(3)>; 3:s ROW<[4:x VARCHAR(2)]>; "
        + "5:m MAP<STRING NOT NULL, VARCHAR(4)>; ", types(f));
  }

  @Test
  void declaredAndPlanningSchemas() {
    List<DataField> f = fromDdl("c CHAR(5), a ARRAY<VARCHAR(3)>, s STRING");
    StructType declared = SparkTypes.toSparkDeclared(f);
    assertEquals("struct<c:char(5),a:array<varchar(3)>,s:string>", declared.catalogString());
    StructType planning = SparkTypes.toSpark(f);
    assertEquals("struct<c:string,a:array<string>,s:string>", planning.catalogString());
    assertEquals("char(5)", planning.fields()[0].metadata().getString(SparkTypes.CHAR_VARCHAR_KEY));
    assertEquals("array<varchar(3)>", planning.fields()[1].metadata().getString(SparkTypes.CHAR_VARCHAR_KEY));
    // What Spark reads back is what was declared.
    assertEquals(declared.catalogString(), CharVarcharUtils.getRawSchema(planning).catalogString());
  }

  @Test
  void commentsAndNullabilityRoundTrip() {
    List<DataField> f = fromDdl("id BIGINT NOT NULL COMMENT 'the id', d DECIMAL(10, 2)");
    assertEquals("the id", f.get(0).description());
    StructType back = SparkTypes.toSpark(f);
    assertEquals("the id", back.fields()[0].getComment().get());
    assertEquals(false, back.fields()[0].nullable());
    assertEquals(DataTypes.createDecimalType(10, 2), back.fields()[1].dataType());
  }

  @Test
  void unsupportedTypesNameTheColumn() {
    StructType s = new StructType().add("ok", DataTypes.IntegerType).add("span", DataTypes.CalendarIntervalType);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SparkTypes.fromSpark(s, new AtomicInteger(-1)));
    assertTrue(e.getMessage().contains("'span'") && e.getMessage().contains("interval"), e.getMessage());
    StructType v = new StructType().add("nothing", DataTypes.NullType);
    e = assertThrows(IllegalArgumentException.class, () -> SparkTypes.fromSpark(v, new AtomicInteger(-1)));
    assertTrue(e.getMessage().contains("'nothing'") && e.getMessage().contains("void"), e.getMessage());
    StructType n = new StructType().add("s", new StructType().add("inner", org.apache.spark.sql.types.DayTimeIntervalType$.MODULE$.DEFAULT()));
    e = assertThrows(IllegalArgumentException.class, () -> SparkTypes.fromSpark(n, new AtomicInteger(-1)));
    assertTrue(e.getMessage().contains("'inner'"), e.getMessage());
  }
}

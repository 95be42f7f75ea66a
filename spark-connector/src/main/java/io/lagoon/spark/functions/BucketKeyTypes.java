package io.lagoon.spark.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.lagoon.core.types.PaimonType;
import io.lagoon.core.types.TypeJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact Paimon types of a bucket key, written as a JSON array of schema-file type strings
 * (e.g. {@code ["INT NOT NULL","TIMESTAMP(3)"]}). Spark's types lose precision that changes the
 * hash (TIMESTAMP(3) and TIMESTAMP(6) are both Spark timestamps), so the bucket function is told
 * the types in this form as a literal argument.
 */
public final class BucketKeyTypes {
  private static final ObjectMapper JSON = new ObjectMapper();

  private BucketKeyTypes() {}

  public static String encode(List<PaimonType> types) {
    ArrayNode arr = JsonNodeFactory.instance.arrayNode();
    for (PaimonType t : types) arr.add(TypeJson.toJson(t));
    return arr.toString();
  }

  /** Parses {@link #encode}'s form; a malformed text is an error that quotes it. */
  public static List<PaimonType> decode(String text) {
    try {
      JsonNode n = JSON.readTree(text);
      if (n == null || !n.isArray() || n.isEmpty()) throw new IllegalArgumentException("not a non-empty JSON array");
      List<PaimonType> out = new ArrayList<>();
      for (JsonNode t : n) out.add(TypeJson.fromJson(t));
      return out;
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("Bucket key types '" + text + "' cannot be read (" + e.getMessage()
          + "); expected a JSON array of Paimon types such as [\"INT\",\"TIMESTAMP(3)\"]", e);
    }
  }
}

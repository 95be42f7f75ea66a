package io.lagoon.core.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lagoon.core.types.DataField;
import io.lagoon.core.types.TypeJson;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/** Reads the copies of Paimon 1.3.1 fixture tables kept in this module's test resources. */
final class PaimonFixtures {
  static final String WAREHOUSE = "fixtures/paimon-1.3.1-warehouse/db.db/";

  private PaimonFixtures() {}

  static Path tableDir(String table) {
    URL url = PaimonFixtures.class.getClassLoader().getResource(WAREHOUSE + table);
    if (url == null) throw new IllegalStateException("missing test resource " + WAREHOUSE + table);
    try {
      return Paths.get(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<DataField> schemaFields(String table) throws IOException {
    JsonNode schema = new ObjectMapper().readTree(tableDir(table).resolve("schema/schema-0").toFile());
    return TypeJson.fieldsFromJson(schema.get("fields"));
  }

  /** Every manifest entry (ADD and DELETE) of every manifest file of the table. */
  static List<GenericRecord> manifestEntries(String table) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(tableDir(table).resolve("manifest"))) {
      files = s.filter(p -> p.getFileName().toString().startsWith("manifest-")
              && !p.getFileName().toString().startsWith("manifest-list-"))
          .sorted().collect(Collectors.toList());
    }
    List<GenericRecord> out = new ArrayList<>();
    for (Path f : files) out.addAll(read(f.toFile()));
    if (out.isEmpty()) throw new IllegalStateException("no manifest entries for " + table);
    return out;
  }

  static List<GenericRecord> read(File avro) throws IOException {
    List<GenericRecord> out = new ArrayList<>();
    try (DataFileReader<GenericRecord> r = new DataFileReader<>(avro, new GenericDatumReader<>())) {
      for (GenericRecord g : r) out.add(g);
    }
    return out;
  }

  static byte[] bytes(GenericRecord record, String field) {
    ByteBuffer b = ((ByteBuffer) record.get(field)).duplicate();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  static GenericRecord file(GenericRecord entry) {
    return (GenericRecord) entry.get("_FILE");
  }
}

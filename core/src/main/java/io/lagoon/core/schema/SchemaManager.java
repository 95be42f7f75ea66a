package io.lagoon.core.schema;

import io.lagoon.core.fs.FileIO;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/** Reads and publishes a table's schema versions ({@code schema/schema-N}). */
public final class SchemaManager implements Serializable {
  private static final String PREFIX = "schema-";
  private final FileIO io;
  private final Path tableDir;

  public SchemaManager(FileIO io, Path tableDir) {
    this.io = io;
    this.tableDir = tableDir;
  }

  public Path schemaDir() {
    return new Path(tableDir, "schema");
  }

  public Path schemaPath(long id) {
    return new Path(schemaDir(), PREFIX + id);
  }

  public List<Long> listIds() throws IOException {
    List<Long> ids = new ArrayList<>();
    for (FileStatus s : io.list(schemaDir())) {
      String n = s.getPath().getName();
      if (n.startsWith(PREFIX)) {
        try {
          ids.add(Long.parseLong(n.substring(PREFIX.length())));
        } catch (NumberFormatException ignore) {
          // not a schema file
        }
      }
    }
    ids.sort(Long::compare);
    return ids;
  }

  public Optional<TableSchema> latest() throws IOException {
    List<Long> ids = listIds();
    return ids.isEmpty() ? Optional.empty() : Optional.of(schema(ids.get(ids.size() - 1)));
  }

  public TableSchema schema(long id) throws IOException {
    Path p = schemaPath(id);
    String json;
    try {
      json = io.readUtf8(p);
    } catch (FileNotFoundException e) {
      throw new IOException("Schema file is missing: " + p, e);
    }
    try {
      return SchemaJson.fromJson(json);
    } catch (IOException | RuntimeException e) {
      throw new IOException("Corrupt schema file " + p + ": " + e.getMessage(), e);
    }
  }

  /** Publishes a new schema version atomically; false if that id already exists. */
  public boolean tryCommit(TableSchema schema) throws IOException {
    io.mkdirs(schemaDir());
    return io.tryPublish(schemaPath(schema.id()), SchemaJson.toJson(schema));
  }
}

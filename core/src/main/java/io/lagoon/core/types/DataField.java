package io.lagoon.core.types;

import java.io.Serializable;
import java.util.Objects;

/** A named, id-carrying column of a table schema or of a ROW type. Ids survive renames. */
public final class DataField implements Serializable {
  private final int id;
  private final String name;
  private final PaimonType type;
  private final String description;

  public DataField(int id, String name, PaimonType type, String description) {
    this.id = id;
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type");
    this.description = description;
  }

  public DataField(int id, String name, PaimonType type) {
    this(id, name, type, null);
  }

  public int id() { return id; }
  public String name() { return name; }
  public PaimonType type() { return type; }
  public String description() { return description; }

  public DataField withName(String newName) { return new DataField(id, newName, type, description); }
  public DataField withType(PaimonType newType) { return new DataField(id, name, newType, description); }
  public DataField withDescription(String d) { return new DataField(id, name, type, d); }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DataField)) return false;
    DataField f = (DataField) o;
    return id == f.id && name.equals(f.name) && type.equals(f.type) && Objects.equals(description, f.description);
  }

  @Override
  public int hashCode() { return Objects.hash(id, name, type); }

  @Override
  public String toString() { return id + ":" + name + " " + type; }
}

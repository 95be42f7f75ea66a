package io.lagoon.core.manifest;

/** Whether a manifest entry adds a file to the table or removes it. Stored as 0 and 1. */
public enum FileKind {
  ADD, DELETE;

  public int code() { return this == ADD ? 0 : 1; }

  public static FileKind of(int code) {
    switch (code) {
      case 0: return ADD;
      case 1: return DELETE;
      default: throw new IllegalArgumentException("Unknown manifest entry kind " + code);
    }
  }
}

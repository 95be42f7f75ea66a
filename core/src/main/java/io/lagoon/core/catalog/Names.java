package io.lagoon.core.catalog;

import io.lagoon.core.catalog.CatalogException.Kind;

/**
 * The one check of database and table names, run before a name becomes a folder under the
 * warehouse ({@code <warehouse>/<db>.db/<table>/}). Every catalog entry point reaches paths through
 * {@link Identifier} or {@link FileSystemCatalog#databaseDir}, both of which call it, so a name that
 * could point elsewhere ({@code ..}, a separator, a URI scheme) is refused before any file is
 * read or touched.
 */
public final class Names {
  private Names() {}

  /** Refuses a database name that is not a plain folder name. */
  public static String checkDatabase(String name) {
    check(name, "database");
    return name;
  }

  /** Refuses a table name that is not a plain folder name. */
  public static String checkTable(String name) {
    check(name, "table");
    return name;
  }

  /** Refuses a tag or branch name that is not a plain file name (it becomes {@code tag/tag-<name>}). */
  public static String checkPlain(String name, String what) {
    if (name != null && name.isBlank()) refuse(name, what, "it is blank");
    check(name, what);
    return name;
  }

  /**
   * The rules for a name that is about to be created: the access rules, and {@code '$'}, which
   * separates a table from its system tables ({@code t$snapshots}).
   */
  public static void checkNew(String name, String what) {
    check(name, what);
    if (name.contains("$")) refuse(name, what, "'$' is reserved for system tables such as t$snapshots");
  }

  private static void check(String name, String what) {
    if (name == null || name.isEmpty()) refuse(name, what, "it is empty");
    if (name.equals(".") || name.equals("..")) refuse(name, what, "'.' and '..' name no folder of the warehouse");
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/' || c == '\\') refuse(name, what, "'" + c + "' separates folders");
      if (c == ':') refuse(name, what, "':' would make it a URI scheme or drive");
      if (Character.isISOControl(c)) refuse(name, what, "it holds the control character U+" + String.format("%04X", (int) c));
    }
    if (name.startsWith(".")) refuse(name, what, "names starting with '.' are hidden files");
  }

  private static void refuse(String name, String what, String why) {
    String shown = name == null ? "null" : "'" + escapeControls(name) + "'";
    throw new CatalogException(Kind.INVALID, "Invalid " + what + " name " + shown + ": " + why);
  }

  private static String escapeControls(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isISOControl(c)) sb.append(String.format("\\u%04X", (int) c));
      else sb.append(c);
    }
    return sb.toString();
  }
}

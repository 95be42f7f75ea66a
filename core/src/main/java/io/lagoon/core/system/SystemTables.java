package io.lagoon.core.system;

import java.util.List;
import java.util.Locale;

/** The metadata tables every data table has, by the name after {@code $}. */
public final class SystemTables {
  private static final List<SystemTable> ALL = List.of(new SnapshotsTable(), new SchemasTable(), new OptionsTable(),
      new TagsTable(), new BranchesTable(), new ConsumersTable(), new FilesTable(), new ManifestsTable(),
      new PartitionsTable(false), new PartitionsTable(true));

  private SystemTables() {}

  /** The system table of that name (case-insensitive), or null. */
  public static SystemTable of(String name) {
    for (SystemTable t : ALL) if (t.name().equals(name.toLowerCase(Locale.ROOT))) return t;
    return null;
  }

  /** {@code [table, system table]} of a name such as {@code t$files}; null when it names none. */
  public static String[] split(String tableName) {
    int i = tableName.lastIndexOf('$');
    if (i <= 0 || i == tableName.length() - 1) return null;
    String suffix = tableName.substring(i + 1);
    return of(suffix) == null ? null : new String[] {tableName.substring(0, i), suffix};
  }

  public static List<String> names() {
    return ALL.stream().map(SystemTable::name).toList();
  }
}

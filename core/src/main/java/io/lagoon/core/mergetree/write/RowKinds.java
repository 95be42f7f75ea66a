package io.lagoon.core.mergetree.write;

import io.lagoon.core.mergetree.engine.KeyValue;

/** Parses the row-kind strings a {@code rowkind.field} column holds, with Paimon's short names. */
final class RowKinds {
  private RowKinds() {}

  static byte parse(String value, String field, String table) {
    if (value != null) {
      switch (value.trim()) {
        case "+I": return KeyValue.INSERT;
        case "-U": return KeyValue.UPDATE_BEFORE;
        case "+U": return KeyValue.UPDATE_AFTER;
        case "-D": return KeyValue.DELETE;
        default: break;
      }
    }
    throw new IllegalArgumentException("Column '" + field + "' of " + table + " (table option 'rowkind.field') holds "
        + (value == null ? "null" : "'" + value + "'") + "; each row needs one of +I, -U, +U, -D");
  }
}

package io.lagoon.core.operation;

import io.lagoon.core.commit.CommitConflictException;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.table.FileStoreTable;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Checks that the files an operation removes or read are still live, on the level it saw them:
 * Paimon matches a DELETE to its ADD by level, so a file another commit moved to a new level is no
 * longer the entry this operation saw.
 */
final class LiveFileCheck {
  private LiveFileCheck() {}

  static void check(FileStoreTable table, Collection<ManifestEntry> expected, Collection<ManifestEntry> live,
                    String what) {
    if (expected.isEmpty()) return;
    Map<ManifestEntry.FileId, Integer> levels = new HashMap<>();
    for (ManifestEntry e : live) levels.put(e.id(), e.file.level);
    for (ManifestEntry e : expected) {
      Integer level = levels.get(e.id());
      if (level == null || level != e.file.level) {
        throw new CommitConflictException("File " + what + " conflict on " + table.fullName() + ": " + e.id()
            + " was removed or moved by a concurrent commit; the operation must be planned again on the new snapshot");
      }
    }
  }
}

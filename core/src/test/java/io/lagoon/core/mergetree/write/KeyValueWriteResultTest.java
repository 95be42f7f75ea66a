package io.lagoon.core.mergetree.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.mergetree.read.SectionTestFiles;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The files a task reports as its own, which a failed or aborted write deletes. */
class KeyValueWriteResultTest {
  private static ManifestEntry entry(String name, int level) {
    return new ManifestEntry(FileKind.ADD, new byte[0], 0, 2, SectionTestFiles.file(name, 1, 9, level, 0L));
  }

  private static List<String> names(List<ManifestEntry> entries) {
    List<String> out = new ArrayList<>();
    for (ManifestEntry e : entries) out.add(e.file.fileName + "@" + e.file.level);
    return out;
  }

  @Test
  void aCommittedFileTheCompactionOnlyMovedIsNotTheTasksToDelete() {
    // The task wrote "new"; its compaction moved "new" and the committed "old" up a level and
    // merged "committed-a" and "committed-b" into "merged".
    KeyValueWriteResult r = new KeyValueWriteResult(
        List.of(entry("new", 0)),
        List.of(entry("new", 0), entry("old", 0), entry("committed-a", 1), entry("committed-b", 2)),
        List.of(entry("new", 4), entry("old", 4), entry("merged", 5)));
    assertEquals(List.of("new@0", "merged@5"), names(r.createdFiles()));
  }
}

package io.lagoon.core.manifest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The entries of recently read manifests, shared by everything in this JVM (the driver's scan
 * planning and commits, every write task of an executor). A manifest is never changed once
 * written (its name is unique, Lagoon's and Paimon's alike), so an entry read once stays right;
 * the key also holds the file's size, so a file replaced by another of a different size is read
 * again. Bounded by the number of entries held, least recently used first out.
 */
final class ManifestCache {
  /** About 50 MB of file metadata at the usual few hundred bytes an entry. */
  static final int MAX_ENTRIES = 100_000;

  private static final Map<String, List<ManifestEntry>> CACHE = new LinkedHashMap<>(64, 0.75f, true);
  private static long held;

  private ManifestCache() {}

  static String key(String path, long size) {
    return path + "#" + size;
  }

  static synchronized List<ManifestEntry> get(String key) {
    return CACHE.get(key);
  }

  /** Keeps an unmodifiable list of a manifest's entries (a manifest larger than the bound is not kept). */
  static synchronized void put(String key, List<ManifestEntry> entries) {
    if (entries.size() > MAX_ENTRIES) return;
    List<ManifestEntry> old = CACHE.put(key, entries);
    if (old != null) held -= old.size();
    held += entries.size();
    var it = CACHE.entrySet().iterator();
    while (held > MAX_ENTRIES && it.hasNext()) {
      Map.Entry<String, List<ManifestEntry>> eldest = it.next();
      held -= eldest.getValue().size();
      it.remove();
    }
  }

  static synchronized void clear() {
    CACHE.clear();
    held = 0;
  }
}

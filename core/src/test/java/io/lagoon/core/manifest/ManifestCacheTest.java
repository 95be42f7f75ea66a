package io.lagoon.core.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ManifestCacheTest {
  @AfterEach
  void clear() {
    ManifestCache.clear();
  }

  private static List<ManifestEntry> entries(int n) {
    List<ManifestEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add(null);
    return out;
  }

  @Test
  void aFileOfAnotherSizeIsAnotherKey() {
    List<ManifestEntry> e = entries(3);
    ManifestCache.put(ManifestCache.key("/t/manifest/m-1", 100), e);
    assertSame(e, ManifestCache.get(ManifestCache.key("/t/manifest/m-1", 100)));
    assertNull(ManifestCache.get(ManifestCache.key("/t/manifest/m-1", 101)));
  }

  @Test
  void theLeastRecentlyUsedLeaveFirstOnceTheBoundIsPassed() {
    int half = ManifestCache.MAX_ENTRIES / 2;
    ManifestCache.put("a", entries(half));
    ManifestCache.put("b", entries(half));
    ManifestCache.get("a");
    ManifestCache.put("c", entries(10));
    assertNull(ManifestCache.get("b"), "b was used least recently");
    assertEquals(half, ManifestCache.get("a").size());
    assertEquals(10, ManifestCache.get("c").size());
    ManifestCache.put("huge", entries(ManifestCache.MAX_ENTRIES + 1));
    assertNull(ManifestCache.get("huge"), "a manifest over the bound is not kept");
    assertEquals(10, ManifestCache.get("c").size());
  }
}

package io.lagoon.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TablePropertiesTest {
  private final Identifier id = new Identifier("db", "t");

  @Test
  void sortsPropertiesIntoSchemaPlaces() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("comment", "hello");
    props.put("owner", "me");
    props.put("provider", "paimon");
    props.put("file.format", "orc");
    props.put("option.target-file-size", "64 mb");
    props.put("primary-key", "id, dt");
    props.put("partition", "dt");
    TableProperties p = TableProperties.of(id, props);
    assertEquals("hello", p.comment());
    assertEquals(Map.of("file.format", "orc", "target-file-size", "64 mb"), p.options());
    assertEquals(List.of("id", "dt"), p.primaryKeys());
    assertEquals(List.of("dt"), p.partitionKeys());
  }

  @Test
  void noCommentAndNoKeys() {
    TableProperties p = TableProperties.of(id, Map.of("owner", "me"));
    assertNull(p.comment());
    assertEquals(Map.of(), p.options());
    assertEquals(List.of(), p.primaryKeys());
  }

  @Test
  void otherProvidersAndLocationsAreRefused() {
    CatalogException e = assertThrows(CatalogException.class, () -> TableProperties.of(id, Map.of("provider", "delta")));
    assertTrue(e.getMessage().contains("db.t") && e.getMessage().contains("delta"), e.getMessage());
    e = assertThrows(CatalogException.class, () -> TableProperties.of(id, Map.of("location", "/x")));
    assertTrue(e.getMessage().contains("LOCATION"), e.getMessage());
    assertEquals(Map.of(), TableProperties.of(id, Map.of("provider", "PAIMON")).options());
  }
}

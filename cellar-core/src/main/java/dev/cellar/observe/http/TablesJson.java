package dev.cellar.observe.http;

import dev.cellar.observe.JsonWriter;
import dev.cellar.observe.ObservedDatabase;
import dev.cellar.store.Region;
import dev.cellar.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * The tables for the UI's Tables tab: {@code {"tables":[{"name":...,"families":[{"name":...,
 * "memStoreBytes":...,"files":[{"name":...,"bytes":...}]}]}]}}, tables by name. A file compacted
 * away between listing and sizing shows -1 bytes.
 */
final class TablesJson {

  private TablesJson() {}

  static String render(ObservedDatabase database) {
    StringBuilder text = new StringBuilder();
    JsonWriter json = new JsonWriter(text);
    json.beginObject().name("directory").value(database.directory());
    json.name("tables").beginArray();
    List<Region> regions =
        database.regions().get().stream().sorted(Comparator.comparing(Region::name)).toList();
    for (Region region : regions) {
      json.beginObject().name("name").value(region.name()).name("families").beginArray();
      for (Store store : region.stores()) {
        json.beginObject()
            .name("name")
            .value(store.family().nameString())
            .name("memStoreBytes")
            .value(store.memStoreSize().dataSize())
            .name("files")
            .beginArray();
        for (Path file : store.filePaths()) {
          json.beginObject()
              .name("name")
              .value(file.getFileName().toString())
              .name("bytes")
              .value(size(file))
              .endObject();
        }
        json.endArray().endObject();
      }
      json.endArray().endObject();
    }
    json.endArray().endObject();
    return text.toString();
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }
}

package dev.cellar.cache.bucket;

import dev.cellar.config.InvalidConfigException;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Creates the engine named by {@value BucketCacheConfig#IOENGINE_KEY}, with HBase's spellings
 * (prefixes are case-sensitive, the value is trimmed):
 *
 * <ul>
 *   <li>{@code offheap}: {@link OffHeapIOEngine};
 *   <li>{@code heap}: {@link HeapIOEngine};
 *   <li>{@code file:/p} or {@code files:/p1,/p2,...}: {@link FileIOEngine} over the listed files
 *       (as in HBase, either prefix takes a comma-separated list);
 *   <li>{@code mmap:/p}: {@link MmapIOEngine} copying on read;
 *   <li>{@code pmem:/p}: {@link MmapIOEngine} sharing its memory.
 * </ul>
 */
public final class IOEngines {

  private static final String KEY = BucketCacheConfig.IOENGINE_KEY;
  private static final String EXPECTED =
      "expected offheap, heap, file:/path, files:/path1,/path2, mmap:/path or pmem:/path";

  private IOEngines() {}

  /**
   * The engine {@code spec} names, holding {@code capacity} bytes.
   *
   * @param segmentSize the unit no access crosses (the cache's bucket size)
   * @param persistent whether the cache restarts warm: file and mmap engines then keep existing
   *     files of the right size instead of creating them again; memory engines ignore it
   * @throws InvalidConfigException if {@code spec} names no engine or has a bad path list
   * @throws IllegalArgumentException if the capacity is not a positive multiple of the segment size
   * @throws IOException if a file cannot be created, opened or mapped
   */
  public static IOEngine create(String spec, long capacity, long segmentSize, boolean persistent)
      throws IOException {
    if (spec == null) {
      throw new InvalidConfigException(KEY, "null", "must be set; " + EXPECTED);
    }
    String value = spec.trim();
    EngineChecks.checkSizes(capacity, segmentSize);
    if (value.equals("offheap")) {
      return new OffHeapIOEngine(capacity);
    }
    if (value.equals("heap")) {
      return new HeapIOEngine(capacity, segmentSize);
    }
    if (value.startsWith("files:") || value.startsWith("file:")) {
      List<Path> paths = paths(spec, value.substring(value.indexOf(':') + 1));
      return new FileIOEngine(paths, capacity, segmentSize, persistent);
    }
    if (value.startsWith("mmap:") || value.startsWith("pmem:")) {
      String path = value.substring(value.indexOf(':') + 1);
      if (path.contains(",")) {
        throw new InvalidConfigException(KEY, spec, "mmap: and pmem: take a single path");
      }
      boolean shared = value.startsWith("pmem:");
      return new MmapIOEngine(paths(spec, path).getFirst(), capacity, persistent, shared);
    }
    throw new InvalidConfigException(KEY, spec, "unknown engine; " + EXPECTED);
  }

  /** The comma-separated paths of {@code list}, each trimmed, none empty or repeated. */
  private static List<Path> paths(String spec, String list) {
    List<Path> paths = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    for (String part : list.split(",", -1)) {
      String text = part.trim();
      if (text.isEmpty()) {
        throw new InvalidConfigException(KEY, spec, "a path is empty");
      }
      Path path;
      try {
        path = Path.of(text);
      } catch (InvalidPathException e) {
        throw new InvalidConfigException(
            KEY, spec, "'" + text + "' is not a path: " + e.getReason());
      }
      if (!seen.add(path)) {
        throw new InvalidConfigException(KEY, spec, "the path " + text + " is listed twice");
      }
      paths.add(path);
    }
    return paths;
  }
}

package dev.cellar;

import dev.cellar.cell.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The region boundaries HBase's bulk load infers for a table it creates from files: each file adds
 * +1 at its first row and -1 at its last; walking the rows in order with a running sum, each time
 * the sum comes back to 0 a group of overlapping files ends, and the first row of every group but
 * the first starts a region. So no file spans two regions, and files that overlap share one.
 * Stateless.
 */
final class FileBoundaries {

  private FileBoundaries() {}

  /** A file's first and last rows. */
  record Span(byte[] firstRow, byte[] lastRow) {}

  /** The split keys of a table holding {@code files}, in order; none for files that all overlap. */
  static byte[][] splitKeys(List<Span> files) {
    TreeMap<byte[], Integer> edges = new TreeMap<>(Bytes::compare);
    for (Span file : files) {
      edges.merge(file.firstRow(), 1, Integer::sum);
      edges.merge(file.lastRow(), -1, Integer::sum);
    }
    List<byte[]> keys = new ArrayList<>();
    int running = 0;
    byte[] groupStart = null;
    boolean first = true;
    for (Map.Entry<byte[], Integer> edge : edges.entrySet()) {
      if (running == 0) {
        groupStart = edge.getKey();
      }
      running += edge.getValue();
      if (running == 0) {
        if (!first) {
          keys.add(groupStart);
        }
        first = false;
      }
    }
    return keys.toArray(new byte[0][]);
  }
}

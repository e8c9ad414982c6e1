package dev.cellar.store.memstore;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/** Random cells and cell comparisons for the memstore tests. */
final class TestCells {

  /** The types a memstore holds: data and delete markers, never the seek-only MINIMUM/MAXIMUM. */
  private static final CellType[] TYPES = {
    CellType.PUT,
    CellType.PUT,
    CellType.PUT,
    CellType.DELETE,
    CellType.DELETE_COLUMN,
    CellType.DELETE_FAMILY,
    CellType.DELETE_FAMILY_VERSION
  };

  private static final long[] TIMESTAMPS = {0, 1, 2, 1_000, 1_700_000_000_000L, Long.MAX_VALUE - 1};

  private TestCells() {}

  /** Random cells over a few rows, families and qualifiers so that keys collide often. */
  static final class Generator {
    private final Random random;
    private final List<byte[]> rows = new ArrayList<>();
    private final List<byte[]> families = new ArrayList<>();
    private final List<byte[]> qualifiers = new ArrayList<>();
    private final int maxValueLength;

    Generator(Random random, int rowCount, int maxValueLength) {
      this.random = random;
      this.maxValueLength = maxValueLength;
      for (int i = 0; i < rowCount; i++) {
        rows.add(randomBytes(1 + random.nextInt(12)));
      }
      families.add(Bytes.toBytes("f"));
      families.add(Bytes.toBytes("fam2"));
      qualifiers.add(Bytes.EMPTY);
      for (int i = 0; i < 6; i++) {
        qualifiers.add(randomBytes(1 + random.nextInt(6)));
      }
    }

    byte[] row() {
      return rows.get(random.nextInt(rows.size()));
    }

    KeyValue cell() {
      byte[] value = randomBytes(random.nextInt(maxValueLength + 1));
      List<Tag> tags =
          random.nextInt(10) == 0
              ? List.of(new Tag((byte) (1 + random.nextInt(100)), randomBytes(random.nextInt(8))))
              : List.of();
      return KeyValue.create(
          row(),
          families.get(random.nextInt(families.size())),
          qualifiers.get(random.nextInt(qualifiers.size())),
          TIMESTAMPS[random.nextInt(TIMESTAMPS.length)],
          TYPES[random.nextInt(TYPES.length)],
          value,
          tags);
    }

    /** A seek key: an existing-looking cell key, or a first/last-on-row or -column key. */
    Cell seekKey() {
      return switch (random.nextInt(5)) {
        case 0 -> KeyValue.firstOnRow(row());
        case 1 -> KeyValue.lastOnRow(row());
        case 2 ->
            KeyValue.firstOnColumn(
                row(),
                families.get(random.nextInt(families.size())),
                qualifiers.get(random.nextInt(qualifiers.size())));
        case 3 ->
            KeyValue.lastOnColumn(
                row(),
                families.get(random.nextInt(families.size())),
                qualifiers.get(random.nextInt(qualifiers.size())));
        default -> cell().withSequenceId(random.nextInt(1_000));
      };
    }

    private byte[] randomBytes(int length) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      return bytes;
    }
  }

  /** The cell's serialized bytes and sequence id, for exact comparison. */
  static String describe(Cell cell) {
    if (cell == null) {
      return "null";
    }
    byte[] bytes = new byte[cell.length()];
    KeyValue.writeTo(cell, java.lang.foreign.MemorySegment.ofArray(bytes), 0);
    return cell + " " + HexFormat.of().formatHex(bytes) + " seq=" + cell.sequenceId();
  }

  /** Descriptions of every cell the cursor returns from where it is. */
  static List<String> drain(CellCursor cursor) {
    List<String> out = new ArrayList<>();
    for (Cell cell = cursor.next(); cell != null; cell = cursor.next()) {
      out.add(describe(cell));
    }
    return out;
  }

  /** A cursor merging sorted cursors, as the store layer's heap will (test use only). */
  static CellCursor merge(List<CellCursor> cursors) {
    return new CellCursor() {
      @Override
      public Cell peek() {
        Cell smallest = null;
        for (CellCursor cursor : cursors) {
          Cell cell = cursor.peek();
          if (cell != null
              && (smallest == null || CellComparator.INSTANCE.compare(cell, smallest) < 0)) {
            smallest = cell;
          }
        }
        return smallest;
      }

      @Override
      public boolean seekToPreviousRow(Cell key) {
        throw new UnsupportedOperationException("the test merge cursor only moves forward");
      }

      @Override
      public Cell next() {
        Cell smallest = peek();
        for (CellCursor cursor : cursors) {
          if (cursor.peek() == smallest && smallest != null) {
            return cursor.next();
          }
        }
        return null;
      }

      @Override
      public boolean seek(Cell key) {
        cursors.forEach(cursor -> cursor.seek(key));
        return peek() != null;
      }

      @Override
      public boolean reseek(Cell key) {
        cursors.forEach(cursor -> cursor.reseek(key));
        return peek() != null;
      }

      @Override
      public void close() {
        cursors.forEach(CellCursor::close);
      }
    };
  }
}

package dev.cellar.filter;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.KeyValue;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * Keeps the rows that match any of several fuzzy keys, as HBase's FuzzyRowFilter: a fuzzy key is a
 * row key with a mask saying which bytes are fixed (mask byte 0) and which may be anything (1). A
 * row matches a key when its fixed bytes, within the shorter of the two, equal the key's. A row
 * that matches none is dropped ({@link #filterRow}) and its cells answered with a seek hint to the
 * smallest row after it that could match some key ({@link FuzzyKey#nextRow}); once no key can match
 * any later row the hint is null and the filter is done ({@link #filterAllRemaining}).
 *
 * <p>Like HBase's, the filter keeps each key's next candidate row in a priority queue between hints
 * and recomputes only the candidates the scan has reached. Forward scans only: a reversed scan is
 * refused.
 */
public final class FuzzyRowFilter extends Filter implements HintingFilter {

  /** One fuzzy key: its bytes, and which of them are fixed. */
  public record Pair(byte[] key, byte[] mask) {

    /**
     * @param key the row key pattern
     * @param mask per byte of {@code key}, 0 for fixed and 1 for any; HBase's preprocessed forms
     *     (-1 for fixed, 0 or 2 for any) are accepted too
     */
    public Pair {
      key = Objects.requireNonNull(key, "key").clone();
      mask = Objects.requireNonNull(mask, "mask").clone();
      if (key.length != mask.length) {
        throw new IllegalArgumentException(
            "FuzzyRowFilter: a key of "
                + key.length
                + " bytes has a mask of "
                + mask.length
                + " bytes");
      }
    }
  }

  private final List<FuzzyKey> keys;
  private final List<Pair> pairs;
  private final PriorityQueue<Candidate> candidates =
      new PriorityQueue<>((a, b) -> Bytes.compare(a.row, b.row));
  private boolean trackerStarted;
  private boolean filterRow;
  private boolean done;

  private record Candidate(byte[] row, FuzzyKey key) {}

  /**
   * @param pairs the fuzzy keys
   * @param wildcard the byte that marks "any" in masks already preprocessed by HBase's client (2
   *     for its current masks, 0 for the first version's); raw masks (0 fixed, 1 any) need none
   * @throws IllegalArgumentException if a key's and its mask's lengths differ, or a mask byte means
   *     neither fixed nor any
   */
  public FuzzyRowFilter(List<Pair> pairs, byte wildcard) {
    this.pairs = List.copyOf(pairs);
    this.keys = new ArrayList<>(pairs.size());
    for (Pair pair : pairs) {
      keys.add(new FuzzyKey(pair.key(), fixedBytes(pair.mask(), wildcard)));
    }
  }

  /** Fuzzy keys with raw masks (0 for a fixed byte, 1 for any). */
  public FuzzyRowFilter(List<Pair> pairs) {
    this(pairs, (byte) 2);
  }

  public List<Pair> pairs() {
    return pairs;
  }

  /** Which mask bytes are fixed, reading raw masks, or preprocessed ones when all bytes are so. */
  private static boolean[] fixedBytes(byte[] mask, byte wildcard) {
    boolean preprocessed = true;
    for (byte b : mask) {
      preprocessed &= b == -1 || b == wildcard;
    }
    boolean[] fixed = new boolean[mask.length];
    for (int i = 0; i < mask.length; i++) {
      byte b = mask[i];
      if (preprocessed) {
        fixed[i] = b == -1;
      } else if (b == 0 || b == 1) {
        fixed[i] = b == 0;
      } else {
        throw new IllegalArgumentException(
            "FuzzyRowFilter: mask byte " + b + " is neither 0 (fixed) nor 1 (any)");
      }
    }
    return fixed;
  }

  @Override
  public void setReversed(boolean reversed) {
    if (reversed) {
      throw new UnsupportedOperationException(
          "FuzzyRowFilter in a reversed scan is not supported by Cellar");
    }
    super.setReversed(reversed);
  }

  @Override
  public void reset() {
    filterRow = false;
  }

  @Override
  public ReturnCode filterCell(Cell cell) {
    for (FuzzyKey key : keys) {
      if (key.matches(cell.segment(), cell.rowOffset(), cell.rowLength())) {
        return ReturnCode.INCLUDE;
      }
    }
    filterRow = true;
    return ReturnCode.SEEK_NEXT_USING_HINT;
  }

  /** The first cell of the smallest row after {@code current}'s that some key could match. */
  @Override
  public Cell nextCellHint(Cell current) {
    byte[] row = current.rowArray();
    if (!trackerStarted) {
      for (FuzzyKey key : keys) {
        offer(key, row);
      }
      trackerStarted = true;
    } else {
      while (!candidates.isEmpty() && Bytes.compare(row, candidates.peek().row) >= 0) {
        offer(candidates.poll().key, row);
      }
    }
    if (candidates.isEmpty()) {
      done = true;
      return null;
    }
    return KeyValue.firstOnRow(candidates.peek().row);
  }

  private void offer(FuzzyKey key, byte[] row) {
    byte[] next = key.nextRow(row);
    if (next != null) {
      candidates.add(new Candidate(next, key));
    }
  }

  @Override
  public boolean filterRow() {
    return filterRow;
  }

  @Override
  public boolean filterAllRemaining() {
    return done;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("FuzzyRowFilter");
    for (Pair pair : pairs) {
      text.append(" (")
          .append(Bytes.toStringBinary(pair.key()))
          .append(", ")
          .append(Bytes.toStringBinary(pair.mask()))
          .append(')');
    }
    return text.toString();
  }

  /** A key with its fixed bytes; compares rows in place. */
  static final class FuzzyKey {

    private final byte[] key;
    private final boolean[] fixed;

    FuzzyKey(byte[] key, boolean[] fixed) {
      this.key = key.clone();
      this.fixed = fixed;
      for (int i = 0; i < key.length; i++) {
        if (!fixed[i]) {
          this.key[i] = 0;
        }
      }
    }

    /** Whether the row's fixed bytes, within the shorter of row and key, equal the key's. */
    boolean matches(MemorySegment segment, long offset, int length) {
      int common = Math.min(length, key.length);
      for (int i = 0; i < common; i++) {
        if (fixed[i] && segment.get(ValueLayout.JAVA_BYTE, offset + i) != key[i]) {
          return false;
        }
      }
      return true;
    }

    /**
     * The smallest row after {@code row} whose fixed bytes are the key's, as HBase computes it
     * (null when there is none): the row's bytes with the fixed ones set, which is already larger
     * if the first differing fixed byte of the row is smaller than the key's; otherwise the last
     * free byte before that point that can grow grows by one, and the free bytes after it drop to
     * zero. Free bytes past the last fixed one are cut off, as they would be zero. A row shorter
     * than the key reads as padded with zeros.
     */
    byte[] nextRow(byte[] row) {
      int length = Math.max(row.length, key.length);
      byte[] result = java.util.Arrays.copyOf(key, length);
      int toGrow = -1;
      boolean larger = false;
      for (int i = 0; i < length; i++) {
        int rowByte = i < row.length ? row[i] & 0xFF : 0;
        if (i >= key.length || !fixed[i]) {
          result[i] = (byte) rowByte;
          if (rowByte != 0xFF) {
            toGrow = i;
          }
        } else if (rowByte < (key[i] & 0xFF)) {
          larger = true;
          break;
        } else if (rowByte > (key[i] & 0xFF)) {
          break;
        }
      }
      if (!larger) {
        if (toGrow < 0) {
          return null;
        }
        result[toGrow]++;
        for (int i = toGrow + 1; i < length; i++) {
          if (i >= key.length || !fixed[i]) {
            result[i] = 0;
          }
        }
      }
      int end = Math.min(key.length, length) - 1;
      while (end >= 0 && !fixed[end]) {
        end--;
      }
      end = Math.max(end, toGrow);
      return java.util.Arrays.copyOf(result, end + 1);
    }
  }
}

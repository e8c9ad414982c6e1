package dev.cellar.cache;

import java.util.Arrays;

/**
 * The state of a SHARDS reuse-distance tracker (Waldspurger et al., FAST '15), fed one sampled
 * access at a time: a table of the sampled blocks in recency order, a histogram of the byte
 * distances of their reuses, and the sampling threshold, which the fixed-size variant lowers so
 * that at most {@code maxBlocks} blocks are ever tracked.
 *
 * <p><b>Model.</b> A block is sampled when its key's 62-bit hash is below the threshold {@code T};
 * the rate is {@code R = T / 2^62}. The byte stack distance of an access is the bytes of the
 * distinct blocks read since the block's previous access, the block itself included: an LRU cache
 * of capacity {@code C} (in the same bytes) hits exactly when that distance is at most {@code C}.
 * Over the sampled blocks, the bytes of the others are a sample of rate {@code R}, so the distance
 * is estimated as the block's own weight plus the others' sampled bytes divided by {@code R}. Each
 * access lands in one interval of the histogram, cut at the curve's {@code points}; a first access
 * (or the reuse of a block deeper than the largest point, which is dropped) counts as a miss at
 * every size. The hit ratio at point {@code k} is the weight of the intervals up to {@code k} over
 * all the weight.
 *
 * <p><b>Structures.</b> Every tracked block has a slot in dense arrays (its hash, its weight, the
 * logical time of its last access), found through an open-addressed index on the hash. A Fenwick
 * tree over logical times holds each block's weight at its last access time, so the bytes read
 * since a time is one prefix-sum difference, {@code O(log n)}. Times run to a window of twice
 * {@code maxBlocks}; when it is used up, or a new block finds the table full, {@link #compact}
 * renumbers the live blocks in recency order, drops the blocks deeper than the largest point and,
 * if the table is still more than seven-eighths full, lowers the threshold to the hash that keeps
 * the seven-eighths with the smallest hashes. Lowering the rate from {@code R} to {@code R'} scales
 * the histogram by {@code R'/R}, as the fixed-size SHARDS does, so that earlier samples (each
 * standing for {@code 1/R} accesses) weigh against later ones (each {@code 1/R'}).
 *
 * <p><b>Memory.</b> Every array is allocated once, here: about 80 bytes per tracked block. No call
 * allocates.
 *
 * <p>Not thread-safe: {@link MissRatioCurveTracker} serializes the calls.
 */
final class ReuseDistances {

  /** The threshold of a rate of 1: every 62-bit hash is below it. */
  static final long FULL_RATE = 1L << 62;

  private final long[] points;
  private final int maxBlocks;
  private final int window;
  private final int mask;

  private long threshold;
  private int blocks;
  private int clock;
  private long[] hashes;
  private int[] weights;
  private int[] times;
  private long[] spareHashes;
  private int[] spareWeights;
  private int[] spareTimes;
  private final int[] index;
  private final int[] ownerAt;
  private final long[] tree;
  private final long[] selection;

  /** Weight of the accesses per interval: index k is (points[k-1], points[k]], the last beyond. */
  private final double[] intervals;

  private double total;
  private long sampledAccesses;

  /**
   * @param points the cache sizes of the curve, in bytes, ascending
   * @param rate the initial sampling rate, in (0, 1]
   * @param maxBlocks the most blocks tracked at once (at least 16)
   */
  ReuseDistances(long[] points, double rate, int maxBlocks) {
    if (!(rate > 0 && rate <= 1)) {
      throw new IllegalArgumentException("sampling rate must be in (0, 1], was " + rate);
    }
    if (maxBlocks < 16) {
      throw new IllegalArgumentException("must track at least 16 blocks, was " + maxBlocks);
    }
    this.points = points.clone();
    this.maxBlocks = maxBlocks;
    this.window = 2 * maxBlocks;
    this.threshold = rate == 1 ? FULL_RATE : Math.max(1, (long) (rate * FULL_RATE));
    this.mask = Integer.highestOneBit(maxBlocks) * 4 - 1;
    this.hashes = new long[maxBlocks];
    this.weights = new int[maxBlocks];
    this.times = new int[maxBlocks];
    this.spareHashes = new long[maxBlocks];
    this.spareWeights = new int[maxBlocks];
    this.spareTimes = new int[maxBlocks];
    this.index = new int[mask + 1];
    this.ownerAt = new int[window + 1];
    this.tree = new long[window + 1];
    this.selection = new long[maxBlocks];
    this.intervals = new double[points.length + 1];
  }

  /** Blocks whose hash is below this are sampled. */
  long threshold() {
    return threshold;
  }

  double rate() {
    return threshold * 0x1p-62;
  }

  int trackedBlocks() {
    return blocks;
  }

  long sampledAccesses() {
    return sampledAccesses;
  }

  /**
   * One access to the block of {@code hash} (a 62-bit hash below the threshold when the caller
   * checked it; dropped if the threshold has fallen below it since), weighing {@code weight} bytes.
   */
  void access(long hash, int weight) {
    if (hash >= threshold) {
      return;
    }
    int slot = find(hash);
    if (slot >= 0) {
      sampledAccesses++;
      total++;
      intervals[intervalOf(weight + (prefix(clock) - prefix(times[slot])) / rate())]++;
      if (clock == window) {
        compact(false);
        slot = find(hash);
      }
      if (slot >= 0) {
        ownerAt[times[slot]] = 0;
        add(times[slot], -weights[slot]);
        place(slot, weight, ++clock);
      } else {
        track(hash, weight);
      }
      return;
    }
    if (blocks == maxBlocks) {
      compact(true);
      if (hash >= threshold) {
        return;
      }
    }
    if (clock == window) {
      compact(false);
    }
    sampledAccesses++;
    total++;
    intervals[points.length]++;
    track(hash, weight);
  }

  /** Adds an untracked block as the most recent; there is room and a free time. */
  private void track(long hash, int weight) {
    int slot = blocks++;
    hashes[slot] = hash;
    place(slot, weight, ++clock);
    insertIndex(hash, slot);
  }

  private void place(int slot, int weight, int time) {
    weights[slot] = weight;
    times[slot] = time;
    ownerAt[time] = slot + 1;
    add(time, weight);
  }

  private int intervalOf(double distance) {
    int low = 0;
    int high = points.length;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (points[middle] >= distance) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return low;
  }

  /**
   * Renumbers the live blocks 1..n in recency order, dropping those deeper than the largest point;
   * with {@code needRoom}, also lowers the threshold until at most seven-eighths of {@code
   * maxBlocks} remain.
   */
  private void compact(boolean needRoom) {
    double rate = rate();
    long newer = 0;
    int kept = 0;
    int oldestKept = clock + 1;
    for (int time = clock; time >= 1; time--) {
      int slot = ownerAt[time] - 1;
      if (slot < 0) {
        continue;
      }
      if (newer / rate > points[points.length - 1]) {
        break;
      }
      newer += weights[slot];
      selection[kept++] = hashes[slot];
      oldestKept = time;
    }
    long keepBelow = Long.MAX_VALUE;
    int limit = maxBlocks - maxBlocks / 8;
    if (needRoom && kept > limit) {
      keepBelow = selectKth(selection, kept, limit);
      lowerThreshold(keepBelow);
    }
    int next = 0;
    for (int time = oldestKept; time <= clock; time++) {
      int slot = ownerAt[time] - 1;
      if (slot < 0 || hashes[slot] >= keepBelow) {
        continue;
      }
      spareHashes[next] = hashes[slot];
      spareWeights[next] = weights[slot];
      spareTimes[next] = next + 1;
      next++;
    }
    swapArrays();
    blocks = next;
    clock = next;
    Arrays.fill(index, 0);
    Arrays.fill(ownerAt, 0);
    Arrays.fill(tree, 0);
    for (int slot = 0; slot < blocks; slot++) {
      ownerAt[slot + 1] = slot + 1;
      tree[slot + 1] = weights[slot];
      insertIndex(hashes[slot], slot);
    }
    for (int i = 1; i <= window; i++) {
      int parent = i + (i & -i);
      if (parent <= window) {
        tree[parent] += tree[i];
      }
    }
  }

  private void swapArrays() {
    long[] h = hashes;
    hashes = spareHashes;
    spareHashes = h;
    int[] w = weights;
    weights = spareWeights;
    spareWeights = w;
    int[] t = times;
    times = spareTimes;
    spareTimes = t;
  }

  private void lowerThreshold(long newThreshold) {
    double scale = (double) newThreshold / threshold;
    for (int i = 0; i < intervals.length; i++) {
      intervals[i] *= scale;
    }
    total *= scale;
    threshold = newThreshold;
  }

  /** The k-th smallest (from 0) of values[0..count), reordering them; a quickselect. */
  static long selectKth(long[] values, int count, int k) {
    int low = 0;
    int high = count - 1;
    while (low < high) {
      long pivot = values[(low + high) >>> 1];
      int i = low;
      int j = high;
      while (i <= j) {
        while (values[i] < pivot) {
          i++;
        }
        while (values[j] > pivot) {
          j--;
        }
        if (i <= j) {
          long swap = values[i];
          values[i] = values[j];
          values[j] = swap;
          i++;
          j--;
        }
      }
      if (k <= j) {
        high = j;
      } else if (k >= i) {
        low = i;
      } else {
        return values[k];
      }
    }
    return values[k];
  }

  private int find(long hash) {
    for (int i = home(hash); ; i = (i + 1) & mask) {
      int slot = index[i] - 1;
      if (slot < 0) {
        return -1;
      }
      if (hashes[slot] == hash) {
        return slot;
      }
    }
  }

  private void insertIndex(long hash, int slot) {
    int i = home(hash);
    while (index[i] != 0) {
      i = (i + 1) & mask;
    }
    index[i] = slot + 1;
  }

  private int home(long hash) {
    return (int) (hash ^ (hash >>> 31)) & mask;
  }

  private void add(int time, long delta) {
    for (int i = time; i <= window; i += i & -i) {
      tree[i] += delta;
    }
  }

  private long prefix(int time) {
    long sum = 0;
    for (int i = time; i > 0; i -= i & -i) {
      sum += tree[i];
    }
    return sum;
  }

  /**
   * Writes the estimated hit ratio at each point into {@code out}; NaN before any access. With
   * {@code accesses} (all the accesses the tracker was shown, sampled or not; negative when
   * unknown), applies SHARDS's adjustment: the sampled weight should be {@code accesses} times the
   * rate, and the difference, which comes mostly from hot blocks the hash left out or took in
   * beyond their share, is added to the shortest distances, as hits at every size.
   */
  void hitRatios(long accesses, double[] out) {
    double expected = accesses < 0 ? total : accesses * rate();
    double cumulative = expected - total;
    for (int k = 0; k < points.length; k++) {
      cumulative += intervals[k];
      out[k] =
          total == 0 || expected <= 0 ? Double.NaN : Math.clamp(cumulative / expected, 0.0, 1.0);
    }
  }
}

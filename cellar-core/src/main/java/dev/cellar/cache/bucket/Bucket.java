package dev.cellar.cache.bucket;

/**
 * One bucket of a {@link BucketAllocator}: a fixed range of {@code capacity} bytes starting at
 * {@link #baseOffset()}, cut into equal slots of its size class's item size. Slot {@code s} starts
 * at {@code baseOffset + s * itemSize}; the tail shorter than one slot is never used.
 *
 * <p>Free slots are an int stack ({@code stack[0, freeCount)}), so taking and returning a slot is
 * O(1) and boxes nothing. A second array holds each slot's position in that stack, or {@link
 * #IN_USE}: it answers "is this slot used?" in O(1), which catches double frees, and lets a restore
 * claim a given slot in O(1) by swapping it with the top of the stack.
 *
 * <p>A bucket is reconfigured to another size class only while it holds no used slot. Not
 * thread-safe: the allocator guards every bucket with its own lock.
 */
final class Bucket {

  private static final int IN_USE = -1;

  private final int index;
  private final long baseOffset;
  private final long capacity;
  private int sizeClass = -1;
  private int itemSize;
  private int[] stack = new int[0];
  private int[] position = new int[0];
  private int freeCount;

  Bucket(int index, long capacity) {
    this.index = index;
    this.capacity = capacity;
    this.baseOffset = index * capacity;
  }

  int index() {
    return index;
  }

  long baseOffset() {
    return baseOffset;
  }

  /** The size class this bucket serves, or -1 before it is first configured. */
  int sizeClass() {
    return sizeClass;
  }

  int itemSize() {
    return itemSize;
  }

  int slotCount() {
    return stack.length;
  }

  int freeCount() {
    return freeCount;
  }

  int usedCount() {
    return stack.length - freeCount;
  }

  boolean isCompletelyFree() {
    return freeCount == stack.length;
  }

  /** Serves {@code sizeClass} with slots of {@code itemSize} bytes, all free. */
  void configure(int sizeClass, int itemSize) {
    if (usedCount() != 0) {
      throw new IllegalStateException(
          "bucket " + index + " still holds " + usedCount() + " used slots");
    }
    int slots = (int) (capacity / itemSize);
    this.sizeClass = sizeClass;
    this.itemSize = itemSize;
    if (stack.length != slots) {
      stack = new int[slots];
      position = new int[slots];
    }
    for (int i = 0; i < slots; i++) {
      int slot = slots - 1 - i;
      stack[i] = slot;
      position[slot] = i;
    }
    freeCount = slots;
  }

  /** Takes a free slot (lowest offsets first while the bucket is fresh) and returns its offset. */
  long allocate() {
    int slot = stack[--freeCount];
    position[slot] = IN_USE;
    return baseOffset + (long) slot * itemSize;
  }

  /** The slot starting at {@code offset}, or -1 if no slot of this bucket starts there. */
  int slotAt(long offset) {
    long relative = offset - baseOffset;
    if (relative < 0 || relative % itemSize != 0 || relative / itemSize >= stack.length) {
      return -1;
    }
    return (int) (relative / itemSize);
  }

  boolean isUsed(int slot) {
    return position[slot] == IN_USE;
  }

  /** Returns a used slot to the free stack. */
  void free(int slot) {
    position[slot] = freeCount;
    stack[freeCount++] = slot;
  }

  /** Marks a given free slot used (a restore); false if it is already used. */
  boolean claim(int slot) {
    int at = position[slot];
    if (at == IN_USE) {
      return false;
    }
    int top = stack[--freeCount];
    stack[at] = top;
    position[top] = at;
    position[slot] = IN_USE;
    return true;
  }
}

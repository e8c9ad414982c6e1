package dev.cellar.cache.bucket;

import dev.cellar.memory.Buf;
import dev.cellar.memory.Recycler;
import dev.cellar.memory.RefCnt;
import dev.cellar.memory.ReusableSlots;

/**
 * A bucket slot lent to a reader, who reads a missed block from its file straight into it, so that
 * the block lands once, where the cache keeps it, instead of in a pooled buffer that a writer
 * thread later copies into a slot.
 *
 * <p><b>Memory.</b> The slot's bytes are a view of the engine's memory over the whole slot,
 * counting in the slot's own {@link RefCnt}. It starts with the borrower's reference (the block
 * read into it shares that count). When the block is published, the {@link BucketEntry} takes one
 * more reference, and gives it back through {@link BucketEntry.SlotOwner} when its own count
 * reaches zero (evicted and no longer read). The slot returns to the allocator when both are gone,
 * so neither the borrower nor a later reader can see the bytes reused. A slot whose block is never
 * published (the read failed, or the cache chose to copy instead) returns when the borrower
 * releases its block.
 *
 * <p><b>Reuse.</b> The cache keeps the object of each slot it lends and lends it again when the
 * allocator hands out the same slot ({@link #relend}): its view and count (revived, in a new
 * generation) and the block object its last borrower read into it (a {@link ReusableSlots}
 * attachment), so a lent read makes no object. Only holders of a reference use the view; the
 * entry's readers retain the entry's own count, never this one, so nobody retains a freed slot
 * again.
 *
 * <p><b>Concurrency.</b> Published at most once per lending ({@link #markPublished}, a plain flag:
 * a slot is borrowed and published by one thread, and lent again only after the allocator took it
 * back, whose lock orders the two). The count is thread-safe as every {@code RefCnt}.
 */
final class LentSlot implements Recycler, BucketEntry.SlotOwner, ReusableSlots.Owner {

  /** What leak reports call a lent slot. */
  private static final String DESCRIPTION = "bucket cache slot lent to a reader";

  /** Takes a slot back into the allocator. */
  interface Returner {
    void slotReturned(long offset, int length);
  }

  final long offset;

  /** The slot's size: the allocator's size class. */
  final int length;

  private final Returner returner;
  private final ReusableSlots reusable = new ReusableSlots(1);
  private final Buf bytes;
  private boolean published;

  /** Lends the slot at {@code offset}; the returned slot's {@link #bytes()} hold one reference. */
  LentSlot(IOEngine engine, long offset, int length, Returner returner) {
    this.offset = offset;
    this.length = length;
    this.returner = returner;
    this.bytes = reusable.keep(0, engine.view(offset, length, RefCnt.pooled(this, 0, DESCRIPTION)));
  }

  /** Lends this slot again, freed since: its bytes hold one reference again. */
  void relend() {
    reusable.revive(0, DESCRIPTION);
    published = false;
  }

  /** The slot's bytes, carrying the borrower's reference (handed out once per lending). */
  Buf bytes() {
    return bytes;
  }

  /** True if {@code block} starts at this slot and counts in its references. */
  boolean holds(Buf block) {
    return block.owner() == this
        && block.isSingleSegment()
        && block.segment().address() == bytes.segment().address();
  }

  boolean isPublished() {
    return published;
  }

  /** Records the publication and takes the entry's reference. */
  void markPublished() {
    published = true;
    bytes.retain();
  }

  @Override
  public void slotReleased(BucketEntry entry) {
    bytes.release();
  }

  @Override
  public ReusableSlots reusableSlots() {
    return reusable;
  }

  /** Tells the block object kept with the slot, then gives the slot back to the allocator. */
  @Override
  public void recycle(int token) {
    reusable.freed(0);
    returner.slotReturned(offset, length);
  }
}

package dev.cellar.memory;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The reusable buffers of a pool's slots and what their users attached to them (see {@link
 * RecycledHeapArrays#reusableSource()}): a slot's buffer object and count are made at its first
 * reusable take and handed out anew, revived, at each later one; the slot's attachment is told when
 * the slot's memory is freed, before the slot can be taken again. A {@link SingleSegmentBuf} finds
 * its slot's table through its recycler ({@link Owner}): a pool of many slots, or an owner of one
 * (a bucket cache's slot lent to readers again and again).
 *
 * <p><b>Concurrency.</b> A slot's entries are written by the slot's holder and read by its next
 * holder after the pool's free-slot stack handed the slot over (whose compare-and-set orders them);
 * a buffer asks for its slot's attachment only while it holds a reference.
 */
public final class ReusableSlots {

  /** A pool whose slots may be reusable: a buffer's recycler that has a table. */
  public interface Owner {
    ReusableSlots reusableSlots();
  }

  private final Buf[] buffers;
  private final SlotAttachment[] attachments;

  /** A {@link ByteBuffer} over each off-heap slot's reusable buffer, made at its first use. */
  private final ByteBuffer[] views;

  public ReusableSlots(int slots) {
    this.buffers = new Buf[slots];
    this.attachments = new SlotAttachment[slots];
    this.views = new ByteBuffer[slots];
  }

  /**
   * The reusable buffer of {@code slot}, just taken from the free stacks, revived ({@code
   * trackedAs} as for {@link RefCnt#revive}); null before the slot's first reusable take.
   */
  public Buf revive(int slot, String trackedAs) {
    Buf kept = buffers[slot];
    if (kept != null) {
      kept.refCnt.revive(trackedAs);
    }
    return kept;
  }

  /** Keeps {@code buf}, made at the slot's first reusable take, as its reusable buffer. */
  public Buf keep(int slot, Buf buf) {
    buffers[slot] = buf;
    return buf;
  }

  /** The attachment of {@code slot} if {@code buf} is the slot's reusable buffer; else null. */
  public SlotAttachment attachment(int slot, Buf buf) {
    return buffers[slot] == buf ? attachments[slot] : null;
  }

  /** Keeps {@code attachment} with {@code slot} if {@code buf} is its reusable buffer. */
  public boolean attach(int slot, Buf buf, SlotAttachment attachment) {
    if (buffers[slot] != buf) {
      return false;
    }
    attachments[slot] = attachment;
    return true;
  }

  /**
   * A view of the whole of {@code slot}'s reusable buffer, if {@code buf} is it and lies off heap,
   * made once and kept with the slot, for the buffer's sole holder to read through as {@link
   * Buf#soleHolderView()} says; else null.
   */
  ByteBuffer soleHolderView(int slot, Buf buf, MemorySegment segment) {
    if (buffers[slot] != buf || !segment.isNative()) {
      return null;
    }
    ByteBuffer view = views[slot];
    if (view == null) {
      view = segment.asByteBuffer();
      views[slot] = view;
    }
    return view;
  }

  /** Tells the attachment of {@code slot}, if any, that its memory was freed. */
  public void freed(int slot) {
    SlotAttachment attachment = attachments[slot];
    if (attachment != null) {
      attachment.slotFreed();
    }
  }
}

package dev.cellar.memory;

/**
 * The reusable buffers of a pool's slots and what their users attached to them (see {@link
 * RecycledHeapArrays#reusableSource()}): a slot's buffer object and count are made at its first
 * reusable take and handed out anew, revived, at each later one; the slot's attachment is told
 * when the slot's memory is freed, before the slot can be taken again. A {@link SingleSegmentBuf}
 * finds its slot's table through its recycler ({@link Owner}): a pool of many slots, or an owner
 * of one (a bucket cache's slot lent to readers again and again).
 *
 * <p><b>Concurrency.</b> A slot's entries are written by the slot's holder and read by its next
 * holder after the pool's free-slot stack handed the slot over (whose compare-and-set orders
 * them); a buffer asks for its slot's attachment only while it holds a reference.
 */
public final class ReusableSlots {

  /** A pool whose slots may be reusable: a buffer's recycler that has a table. */
  public interface Owner {
    ReusableSlots reusableSlots();
  }

  private final Buf[] buffers;
  private final SlotAttachment[] attachments;

  public ReusableSlots(int slots) {
    this.buffers = new Buf[slots];
    this.attachments = new SlotAttachment[slots];
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

  /** Tells the attachment of {@code slot}, if any, that its memory was freed. */
  public void freed(int slot) {
    SlotAttachment attachment = attachments[slot];
    if (attachment != null) {
      attachment.slotFreed();
    }
  }
}

package dev.cellar.memory;

/**
 * Pooled slots whose buffer object is kept and handed out anew with each take, and which keep an
 * attachment for it ({@link SlotAttachment}): what a {@link SingleSegmentBuf} asks its recycler
 * for its slot's attachment.
 */
interface ReusableSlots {

  /** The attachment of {@code slot} if {@code buf} is the slot's reusable buffer; else null. */
  SlotAttachment attachment(int slot, Buf buf);

  /** Keeps {@code attachment} with {@code slot} if {@code buf} is its reusable buffer. */
  boolean attach(int slot, Buf buf, SlotAttachment attachment);
}

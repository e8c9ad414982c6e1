package dev.cellar.memory;

/**
 * An object kept with a reusable pooled slot (see {@link RecycledHeapArrays#reusableSource()}),
 * made by the slot's first user and handed to each later one with the slot's buffer: a block read
 * into the slot keeps its block object there instead of making one per read.
 *
 * <p>{@link #slotFreed()} runs on the thread of the slot's last release, before the slot can be
 * taken again: what the attachment gives back when its memory is freed, it gives back there, as the
 * attachment may be reset for the slot's next user right after. It may also run when the slot was
 * used without the attachment, so it must do nothing the second time.
 */
public interface SlotAttachment {

  /** The slot's memory was freed; called before the slot is taken again. */
  void slotFreed();
}

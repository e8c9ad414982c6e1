/**
 * Off-heap memory: reference-counted buffers ({@link dev.cellar.memory.Buf}) over {@code
 * MemorySegment}s, the pooled allocator and leak detection. Every off-heap allocation and every
 * {@code Arena} of Cellar lives in this package.
 *
 * <h2>Ownership</h2>
 *
 * <p>One rule: <b>whoever holds a reference last releases it</b>. A buffer starts with one
 * reference owned by the caller that allocated it. {@code retain()} adds a reference, {@code
 * release()} drops one, and the memory returns to its pool exactly once, when the count reaches
 * zero. A method that hands out a new reference says so in its name ({@code retainedSlice}, {@code
 * retainedDuplicate}, {@code getBlockRetained}) and in its javadoc; every other method that returns
 * a buffer returns a view whose lifetime is bounded by the reference the caller already holds.
 *
 * <h2>Derived buffers</h2>
 *
 * <p>{@code slice} and {@code duplicate} return views that share the reference count of their
 * parent: releasing any of them releases the same memory. Releasing more times than retained throws
 * {@link java.lang.IllegalStateException}, and so does any access through any view after the count
 * reached zero, so recycled memory is never read through a stale view.
 */
package dev.cellar.memory;

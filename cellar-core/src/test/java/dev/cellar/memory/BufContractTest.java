package dev.cellar.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The behaviour every {@link Buf} flavour shares, checked against a {@code byte[]} oracle.
 * Subclasses say how to make a buffer of a given capacity; the test releases what it makes.
 */
@ExtendWith(TestSeedExtension.class)
abstract class BufContractTest {

  private final List<Buf> made = new ArrayList<>();

  /** A new buffer of {@code capacity} bytes holding one reference, owned by the test. */
  protected abstract Buf create(int capacity);

  /** Whether buffers of this flavour are single-segment. */
  protected abstract boolean singleSegment();

  private Buf newBuf(int capacity) {
    Buf buf = create(capacity);
    made.add(buf);
    return buf;
  }

  @AfterEach
  void releaseAll() {
    for (Buf buf : made) {
      if (buf.refCnt() > 0) {
        buf.release();
      }
    }
  }

  @Test
  void capacityAndFlavour() {
    Buf buf = newBuf(300);
    assertEquals(300, buf.capacity());
    assertEquals(singleSegment(), buf.isSingleSegment());
    assertEquals(1, buf.refCnt());
  }

  @Test
  void primitivesAreBigEndianAtEveryOffset() {
    int capacity = 200;
    Buf buf = newBuf(capacity);
    ByteBuffer oracle = ByteBuffer.allocate(capacity).order(ByteOrder.BIG_ENDIAN);
    for (int index = 0; index + Long.BYTES <= capacity; index++) {
      long value = 0x0102030405060708L * (index + 1);
      buf.putLong(index, value);
      oracle.putLong(index, value);
      assertEquals(value, buf.getLong(index), "long at " + index);
      assertEquals(oracle.getInt(index), buf.getInt(index), "int at " + index);
      assertEquals(oracle.getShort(index), buf.getShort(index), "short at " + index);
      assertEquals(oracle.get(index), buf.getByte(index), "byte at " + index);
    }
    for (int index = 0; index + Integer.BYTES <= capacity; index += 3) {
      buf.putInt(index, 0x80FF00 + index);
      oracle.putInt(index, 0x80FF00 + index);
      buf.putShort(index + 1, (short) -index);
      oracle.putShort(index + 1, (short) -index);
      buf.putByte(index + 3, (byte) 0xF0);
      oracle.put(index + 3, (byte) 0xF0);
    }
    assertArrayEquals(oracle.array(), buf.getBytes(0, capacity));
    buf.putByte(7, (byte) 0xFE);
    buf.putShort(8, (short) 0xFFFE);
    assertEquals(0xFE, buf.getUnsignedByte(7));
    assertEquals(0xFFFE, buf.getUnsignedShort(8));
  }

  @Test
  void randomizedAgainstByteArrayOracle(TestSeed seed) {
    Random random = new Random(seed.value());
    int capacity = 1 + random.nextInt(5000);
    Buf buf = newBuf(capacity);
    byte[] oracleBytes = new byte[capacity];
    ByteBuffer oracle = ByteBuffer.wrap(oracleBytes);
    buf.putBytes(0, oracleBytes, 0, capacity);
    for (int op = 0; op < 20_000; op++) {
      int width =
          switch (random.nextInt(5)) {
            case 0 -> 1;
            case 1 -> 2;
            case 2 -> 4;
            case 3 -> 8;
            default -> random.nextInt(Math.min(capacity, 300) + 1);
          };
      if (width > capacity) {
        continue;
      }
      int index = random.nextInt(capacity - width + 1);
      String where = "op=" + op + " index=" + index + " width=" + width;
      if (random.nextBoolean()) {
        long value = random.nextLong();
        switch (width) {
          case 1 -> {
            buf.putByte(index, (byte) value);
            oracle.put(index, (byte) value);
          }
          case 2 -> {
            buf.putShort(index, (short) value);
            oracle.putShort(index, (short) value);
          }
          case 4 -> {
            buf.putInt(index, (int) value);
            oracle.putInt(index, (int) value);
          }
          case 8 -> {
            buf.putLong(index, value);
            oracle.putLong(index, value);
          }
          default -> {
            byte[] chunk = new byte[width];
            random.nextBytes(chunk);
            buf.putBytes(index, chunk, 0, width);
            System.arraycopy(chunk, 0, oracleBytes, index, width);
          }
        }
      } else {
        switch (width) {
          case 1 -> assertEquals(oracle.get(index), buf.getByte(index), where);
          case 2 -> assertEquals(oracle.getShort(index), buf.getShort(index), where);
          case 4 -> assertEquals(oracle.getInt(index), buf.getInt(index), where);
          case 8 -> assertEquals(oracle.getLong(index), buf.getLong(index), where);
          default -> {
            byte[] expected = new byte[width];
            System.arraycopy(oracleBytes, index, expected, 0, width);
            assertArrayEquals(expected, buf.getBytes(index, width), where);
          }
        }
      }
    }
    assertArrayEquals(oracleBytes, buf.getBytes(0, capacity));
  }

  @Test
  void bulkCopiesToAndFromEveryKindOfMemory() {
    int capacity = 1000;
    Buf buf = newBuf(capacity);
    byte[] pattern = pattern(capacity, 3);
    buf.putBytes(0, pattern, 0, capacity);

    byte[] array = new byte[capacity + 10];
    buf.getBytes(5, array, 10, capacity - 5);
    for (int i = 0; i < capacity - 5; i++) {
      assertEquals(pattern[5 + i], array[10 + i]);
    }

    try (Arena arena = Arena.ofConfined()) {
      MemorySegment segment = arena.allocate(capacity);
      buf.getBytes(0, segment, 0, capacity);
      assertArrayEquals(pattern, segment.toArray(ValueLayout.JAVA_BYTE));
      MemorySegment source = arena.allocate(capacity);
      source.copyFrom(MemorySegment.ofArray(pattern(capacity, 7)));
      buf.putBytes(100, source, 50, 400);
      byte[] expected = pattern.clone();
      System.arraycopy(pattern(capacity, 7), 50, expected, 100, 400);
      assertArrayEquals(expected, buf.getBytes(0, capacity));
      pattern = expected;
    }

    for (ByteBuffer target : List.of(ByteBuffer.allocate(600), ByteBuffer.allocateDirect(600))) {
      target.position(100);
      buf.getBytes(200, target);
      assertEquals(600, target.position());
      for (int i = 0; i < 500; i++) {
        assertEquals(pattern[200 + i], target.get(100 + i));
      }
    }
    ByteBuffer source = ByteBuffer.allocateDirect(300);
    source.put(pattern(300, 11)).flip();
    buf.putBytes(700, source);
    assertEquals(0, source.remaining());
    assertArrayEquals(pattern(300, 11), buf.getBytes(700, 300));
  }

  @Test
  void copyToAnotherBufOfAnyFlavour() {
    Buf source = newBuf(512);
    source.putBytes(0, pattern(512, 5), 0, 512);
    Buf single = newBuf(512);
    source.copyTo(10, single, 20, 400);
    assertArrayEquals(slice(pattern(512, 5), 10, 400), single.getBytes(20, 400));
    Buf heap = Buf.wrap(new byte[512]);
    source.copyTo(0, heap, 0, 512);
    assertArrayEquals(pattern(512, 5), heap.getBytes(0, 512));
    heap.copyTo(0, single, 0, 512);
    assertArrayEquals(pattern(512, 5), single.getBytes(0, 512));
  }

  @Test
  void slicesAndDuplicatesShareMemoryAndCount() {
    Buf buf = newBuf(256);
    buf.putBytes(0, pattern(256, 1), 0, 256);
    Buf slice = buf.slice(16, 100);
    assertEquals(100, slice.capacity());
    assertEquals(buf.getLong(16), slice.getLong(0));
    slice.putInt(4, 0xCAFEBABE);
    assertEquals(0xCAFEBABE, buf.getInt(20));
    Buf nested = slice.slice(50, 50);
    assertEquals(buf.getLong(66), nested.getLong(0));
    Buf duplicate = buf.duplicate();
    assertEquals(buf.capacity(), duplicate.capacity());
    assertEquals(buf.getLong(100), duplicate.getLong(100));
    assertEquals(1, slice.refCnt());
    assertEquals(0, buf.slice(256, 0).capacity());

    Buf retained = buf.retainedSlice(0, 10);
    assertEquals(2, buf.refCnt());
    assertFalse(retained.release());
    Buf retainedDuplicate = buf.retainedDuplicate();
    assertEquals(2, retainedDuplicate.refCnt());
    retainedDuplicate.release();
    assertEquals(1, buf.refCnt());
    assertThrows(IndexOutOfBoundsException.class, () -> buf.slice(200, 57));
    assertThrows(IndexOutOfBoundsException.class, () -> slice.getByte(100));
    assertThrows(IndexOutOfBoundsException.class, () -> slice.getLong(93));
  }

  @Test
  void outOfBoundsAccessThrows() {
    Buf buf = newBuf(64);
    assertThrows(IndexOutOfBoundsException.class, () -> buf.getByte(64));
    assertThrows(IndexOutOfBoundsException.class, () -> buf.getByte(-1));
    assertThrows(IndexOutOfBoundsException.class, () -> buf.getShort(63));
    assertThrows(IndexOutOfBoundsException.class, () -> buf.getInt(61));
    assertThrows(IndexOutOfBoundsException.class, () -> buf.getLong(57));
    assertThrows(IndexOutOfBoundsException.class, () -> buf.putLong(60, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> buf.getBytes(60, new byte[8], 0, 8));
    assertThrows(IndexOutOfBoundsException.class, () -> buf.putBytes(0, new byte[8], 4, 8));
  }

  @Test
  void readOnlyByteBufferViews() {
    Buf buf = newBuf(128);
    buf.putBytes(0, pattern(128, 9), 0, 128);
    ByteBuffer[] views = buf.readOnlyByteBuffers();
    int total = 0;
    ByteBuffer gathered = ByteBuffer.allocate(128);
    for (ByteBuffer view : views) {
      assertTrue(view.isReadOnly());
      assertEquals(ByteOrder.BIG_ENDIAN, view.order());
      total += view.remaining();
      gathered.put(view.duplicate());
      assertThrows(ReadOnlyBufferException.class, () -> view.put(0, (byte) 1));
    }
    assertEquals(128, total);
    assertArrayEquals(pattern(128, 9), gathered.array());
    if (singleSegment()) {
      ByteBuffer view = buf.asReadOnlyByteBuffer();
      assertEquals(buf.getLong(8), view.getLong(8));
    } else {
      assertThrows(IllegalStateException.class, buf::asReadOnlyByteBuffer);
      assertThrows(IllegalStateException.class, buf::segment);
    }
  }

  @Test
  void writableByteBuffersWriteThrough() {
    Buf buf = newBuf(300);
    ByteBuffer[] views = buf.writableByteBuffers(10, 250);
    byte value = 0;
    int total = 0;
    for (ByteBuffer view : views) {
      while (view.hasRemaining()) {
        view.put(value++);
        total++;
      }
    }
    assertEquals(250, total);
    for (int i = 0; i < 250; i++) {
      assertEquals((byte) i, buf.getByte(10 + i));
    }
  }

  @Test
  void everyAccessAfterReleaseThrows() {
    Buf buf = newBuf(64);
    Buf slice = buf.slice(8, 16);
    assertTrue(buf.release());
    assertEquals(0, buf.refCnt());
    List<Consumer<Buf>> accesses =
        List.of(
            b -> b.getByte(0),
            b -> b.getShort(0),
            b -> b.getInt(0),
            b -> b.getLong(0),
            b -> b.putByte(0, (byte) 1),
            b -> b.putShort(0, (short) 1),
            b -> b.putInt(0, 1),
            b -> b.putLong(0, 1),
            b -> b.getBytes(0, new byte[4], 0, 4),
            b -> b.putBytes(0, new byte[4], 0, 4),
            b -> b.slice(0, 4),
            b -> b.duplicate(),
            b -> b.retainedSlice(0, 4),
            b -> b.retain(),
            b -> b.release(),
            b -> b.readOnlyByteBuffers(),
            b -> b.writableByteBuffers(0, 4),
            b -> b.getBytes(0, ByteBuffer.allocate(4)));
    for (Buf view : List.of(buf, slice)) {
      for (Consumer<Buf> access : accesses) {
        assertThrows(IllegalStateException.class, () -> access.accept(view));
      }
    }
  }

  @Test
  void overReleaseThrowsAndFreesOnce() {
    Buf buf = newBuf(32);
    buf.retain();
    assertFalse(buf.release());
    assertTrue(buf.release());
    IllegalStateException error = assertThrows(IllegalStateException.class, buf::release);
    assertTrue(error.getMessage().contains("released"), error.getMessage());
  }

  @Test
  void tryRetainSucceedsWhileHeldAndFailsAfterTheLastRelease() {
    Buf buf = newBuf(32);
    assertTrue(buf.tryRetain());
    assertEquals(2, buf.refCnt());
    assertFalse(buf.release());
    assertTrue(buf.release());
    assertFalse(buf.tryRetain(), "a released buffer cannot be revived");
    assertEquals(0, buf.refCnt());
  }

  static byte[] pattern(int length, int salt) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (i * 31 + salt * 17 + (i >>> 8));
    }
    return bytes;
  }

  private static byte[] slice(byte[] bytes, int from, int length) {
    byte[] out = new byte[length];
    System.arraycopy(bytes, from, out, 0, length);
    return out;
  }
}

package dev.cellar.memory;

/** The Buf contract for heap buffers made by {@link Buf#wrap(byte[])}. */
class HeapBufTest extends BufContractTest {

  @Override
  protected Buf create(int capacity) {
    return Buf.wrap(new byte[capacity]);
  }

  @Override
  protected boolean singleSegment() {
    return true;
  }
}

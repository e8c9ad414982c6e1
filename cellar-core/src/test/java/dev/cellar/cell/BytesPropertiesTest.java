package dev.cellar.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class BytesPropertiesTest {

  @Property
  void vlongRoundTrips(@ForAll long value, @ForAll @IntRange(max = 7) int offset) {
    byte[] buffer = new byte[offset + 9];
    int written = Bytes.writeVLong(buffer, offset, value);
    assertEquals(Bytes.vlongSize(value), written);
    assertEquals(written, Bytes.vlongSizeFromFirstByte(buffer[offset]));
    assertEquals(value, Bytes.readVLong(buffer, offset));
    assertEquals(value, Bytes.readVLong(MemorySegment.ofArray(buffer), offset));
  }

  @Property
  void vintRoundTrips(@ForAll int value) {
    MemorySegment buffer = MemorySegment.ofArray(new byte[5]);
    int written = Bytes.writeVLong(buffer, 0, value);
    assertEquals(Bytes.vlongSize(value), written);
    assertEquals(value, Bytes.readVInt(buffer, 0));
  }

  @Property
  void varint64RoundTrips(@ForAll long value, @ForAll @IntRange(max = 7) int offset) {
    MemorySegment buffer = MemorySegment.ofArray(new byte[offset + 10]);
    int written = Bytes.writeVarint64(buffer, offset, value);
    assertEquals(Bytes.varint64Size(value), written);
    assertEquals(written, Bytes.varintLength(buffer, offset));
    assertEquals(value, Bytes.readVarint64(buffer, offset));
  }

  @Property
  void varint32RoundTrips(@ForAll int value) {
    MemorySegment buffer = MemorySegment.ofArray(new byte[5]);
    int written = Bytes.writeVarint32(buffer, 0, value);
    assertEquals(Bytes.varint32Size(value), written);
    assertEquals(written, Bytes.varintLength(buffer, 0));
    assertEquals(value, Bytes.readVarint32(buffer, 0));
    assertEquals(Integer.toUnsignedLong(value), Bytes.readVarint64(buffer, 0));
  }
}

package dev.cellar.server.service;

import java.nio.ByteBuffer;

/**
 * Where the parts of a serialized {@code GetRequest} lie, found without building its messages: the
 * region name and the Get's row, and the rest of the Get (its shape: columns, versions, time range,
 * flags, filter) as the Get's bytes less the row field. A reader that saw a request of the same
 * shape before can then serve this one from the row and the region name alone.
 *
 * <p>The layout read (protobuf, {@code Client.proto}, {@code HBase.proto}): {@code GetRequest} is
 * field 1 {@code region} (a {@code RegionSpecifier}: field 1 {@code type} varint, field 2 {@code
 * value} bytes) and field 2 {@code get}; in {@code Get}, field 1 is {@code row}. Any other field of
 * {@code GetRequest} or {@code RegionSpecifier}, a region that is not named by its full name (type
 * 1), a Get with no row or two, or bytes that are not well-formed make {@link #parse} say no, and
 * the request is parsed as a message instead.
 *
 * <p>Not thread-safe: one per thread, reused from request to request; holds offsets into the last
 * buffer parsed, valid while that buffer is.
 */
final class GetRequestBytes {

  private static final int LENGTH_DELIMITED = 2;
  private static final int VARINT = 0;
  private static final int REGION_NAME_TYPE = 1;

  private ByteBuffer buffer;
  int regionOffset;
  int regionLength;
  int rowOffset;
  int rowLength;
  int getOffset;
  int getEnd;

  /** The row field's bytes within the Get (tag, length and row), which the shape leaves out. */
  int rowFieldOffset;

  int rowFieldEnd;
  private int position;

  /** Reads the request in {@code buffer} from its position to its limit; false if it cannot. */
  boolean parse(ByteBuffer request) {
    this.buffer = request;
    position = request.position();
    int end = request.limit();
    boolean region = false;
    boolean get = false;
    while (position < end) {
      int tag = varint(end);
      if (tag < 0 || (tag & 7) != LENGTH_DELIMITED) {
        return false;
      }
      int length = varint(end);
      if (length < 0 || length > end - position) {
        return false;
      }
      int field = tag >>> 3;
      if (field == 1 && !region) {
        region = region(position, position + length);
      } else if (field == 2 && !get) {
        get = get(position, position + length);
      } else {
        return false;
      }
      if (!region && field == 1 || !get && field == 2) {
        return false;
      }
      position += length;
    }
    return region && get;
  }

  private boolean region(int from, int end) {
    position = from;
    boolean typed = false;
    boolean named = false;
    while (position < end) {
      int tag = varint(end);
      if (tag == (1 << 3 | VARINT) && !typed) {
        typed = varint(end) == REGION_NAME_TYPE;
        if (!typed) {
          return false;
        }
      } else if (tag == (2 << 3 | LENGTH_DELIMITED) && !named) {
        int length = varint(end);
        if (length < 0 || length > end - position) {
          return false;
        }
        regionOffset = position;
        regionLength = length;
        position += length;
        named = true;
      } else {
        return false;
      }
    }
    position = from;
    return typed && named;
  }

  /** Finds the row field of the Get in [from, end); every other field is skipped, unread. */
  private boolean get(int from, int end) {
    position = from;
    boolean rowSeen = false;
    while (position < end) {
      int fieldStart = position;
      int tag = varint(end);
      if (tag < 0) {
        return false;
      }
      switch (tag & 7) {
        case VARINT -> {
          if (varint(end) < 0) {
            return false;
          }
        }
        case LENGTH_DELIMITED -> {
          int length = varint(end);
          if (length < 0 || length > end - position) {
            return false;
          }
          if (tag >>> 3 == 1) {
            if (rowSeen) {
              return false;
            }
            rowSeen = true;
            rowFieldOffset = fieldStart;
            rowOffset = position;
            rowLength = length;
            rowFieldEnd = position + length;
          }
          position += length;
        }
        default -> {
          return false;
        }
      }
    }
    getOffset = from;
    getEnd = end;
    position = from;
    return rowSeen && rowLength > 0;
  }

  /** A varint of at most 32 bits at the position, or -1 if it is malformed or runs past end. */
  private int varint(int end) {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (position >= end) {
        return -1;
      }
      byte b = buffer.get(position++);
      value |= (b & 0x7f) << shift;
      if (b >= 0) {
        return value < 0 ? -1 : value;
      }
    }
    return -1;
  }

  /** Whether the region name equals {@code name}. */
  boolean regionIs(byte[] name) {
    return equalsAt(regionOffset, regionLength, name, 0, name.length);
  }

  /** Whether the Get's bytes less its row field equal {@code shape}'s first {@code length}. */
  boolean shapeIs(byte[] shape, int length) {
    int before = rowFieldOffset - getOffset;
    int after = getEnd - rowFieldEnd;
    return before + after == length
        && equalsAt(getOffset, before, shape, 0, before)
        && equalsAt(rowFieldEnd, after, shape, before, after);
  }

  /** The Get's bytes less its row field, into {@code into} (grown if short); returns it. */
  byte[] copyShape(byte[] into) {
    int before = rowFieldOffset - getOffset;
    int after = getEnd - rowFieldEnd;
    byte[] shape = into.length >= before + after ? into : new byte[before + after];
    buffer.get(getOffset, shape, 0, before);
    buffer.get(rowFieldEnd, shape, before, after);
    return shape;
  }

  /** The length of what {@link #copyShape} copies. */
  int shapeLength() {
    return getEnd - getOffset - (rowFieldEnd - rowFieldOffset);
  }

  /** The row, copied. */
  byte[] row() {
    byte[] row = new byte[rowLength];
    buffer.get(rowOffset, row);
    return row;
  }

  private boolean equalsAt(int offset, int length, byte[] other, int otherOffset, int otherLength) {
    if (length != otherLength) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (buffer.get(offset + i) != other[otherOffset + i]) {
        return false;
      }
    }
    return true;
  }
}

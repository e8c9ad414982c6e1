package dev.cellar.hfile.encoding;

import dev.cellar.cell.Bytes;
import dev.cellar.cell.Cell;
import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValueLayout;
import dev.cellar.memory.ByteLayouts;
import dev.cellar.schema.DataBlockEncoding;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What the PREFIX, DIFF and FAST_DIFF seekers share: the payload header, strictly sequential
 * decoding, the per-cell suffix (tags, mvcc), the tag dictionary and seeking. Not thread-safe; one
 * per reader thread, reused across blocks.
 *
 * <p>Design: a cell can only be decoded from its predecessor. Iterating decodes each cell in place
 * over the current one, so only the bytes that differ from the previous key are written. A seek
 * must be able to step back once when it overshoots, so while seeking the seeker decodes a cell
 * that may overshoot into a spare instead (copying the shared prefix) and keeps three {@link
 * DecodedCell}s whose roles rotate: the current cell, the previous one and, after stepping back,
 * the one ahead. A cell whose header alone shows that it sorts before the key (see below) cannot
 * overshoot and is decoded in place: each decoder reads a cell's header ({@link #readHeader}) apart
 * from its body ({@link #decodeBody}) so that the seek can choose where the body goes. Moving
 * forward again reuses the cell ahead instead of decoding it a second time, which keeps the tag
 * dictionary in step with the writer's (HBase keeps its decompressed tags for the same reason).
 * Nothing is allocated per cell; scratch buffers only grow.
 *
 * <p>A seek continues forward from the current cell when that cell qualifies; otherwise it starts
 * again from the first cell (a rewind, which also clears the tag dictionary). With a {@link
 * Checkpoints} index it first binary-searches the checkpoints for the last one that qualifies and,
 * when that one lies ahead of the current cell (or the seek would start again), restores it as the
 * current cell and decodes forward from there: at most the cells up to the next checkpoint.
 *
 * <p>Walking forward, a seek compares the key with few cells: the key's row first differs from the
 * current cell's at some row byte (the match), and the next cell, whose row shares some leading
 * bytes with the current one (the key prefix the encoding stored), is known to sort before the key
 * as well when it shares more than the match (it differs from the key where the current cell did)
 * or the whole row. So a block without checkpoints costs a decode per cell, in place for the cells
 * so known to sort before the key, and a comparison only where the walk comes closer to the key's
 * row than before, and within that row.
 *
 * <p>Lazy keys: a cell so known to sort before the key, with the row length of the cell before it,
 * is decoded without its key bytes ({@link #decodeKeyLazily}): the walk needs only its lengths, its
 * timestamp and type (later cells derive theirs from them) and where it ends. Its scratch then
 * holds the leading bytes it shares with the key before it, and the rest stays in the block. The
 * next key needs no more while it shares no more than that; one that shares more, or a cell decoded
 * whole from it, or the walk's end, first rebuilds the unsettled key in place ({@link #rebuildKey})
 * from where its bytes lie. In a walk over many rows that share a long prefix, such as row numbers,
 * most keys are so never written.
 */
abstract class DeltaSeeker implements BlockSeeker {

  private static final byte PUT_CODE = CellType.PUT.code();

  /** The bytes at the end of every key after the qualifier. */
  static final int TIMESTAMP_AND_TYPE_SIZE =
      KeyValueLayout.TIMESTAMP_SIZE + KeyValueLayout.TYPE_SIZE;

  /**
   * The most key bytes a DIFF or FAST_DIFF cell takes from neither the block nor the previous key's
   * prefix: the family (with its length) and the timestamp and type, which may be derived.
   */
  private static final int MAX_KEY_BYTES_OUTSIDE_CELL =
      KeyValueLayout.FAMILY_LENGTH_SIZE
          + KeyValueLayout.MAX_FAMILY_LENGTH
          + TIMESTAMP_AND_TYPE_SIZE;

  protected final PayloadReader in;
  private final EncodingContext context;
  private final TagDictionary tagDictionary;
  private final DecodedCell firstKey = new DecodedCell();
  private DecodedCell current = new DecodedCell();
  private DecodedCell previous = new DecodedCell();
  private DecodedCell ahead = new DecodedCell();
  private boolean blockSet;
  private boolean valid;
  private boolean aheadValid;

  /** On the block's first cell, not decoded yet ({@link #setIndexedBlock}). */
  private boolean atFirstUndecoded;

  /** The block's first key is not in {@link #firstKey} yet ({@link #setIndexedBlock}). */
  private boolean firstKeyUndecoded;

  private int firstCellAt;

  /** The lengths of the header {@link #readHeader} read last (the key's as stored, for PREFIX). */
  int headerKeyLength;

  int headerValueLength;
  int headerCommon;
  private Checkpoints checkpoints;
  private final Checkpoints.Builder checkpointBuilder = new Checkpoints.Builder();

  /**
   * The cell whose key a seek's walk left partly in the block ({@link #decodeKeyLazily}), or null;
   * where its stored bytes start, and how many leading bytes its scratch holds already. A walk
   * settles it before it ends or reads the key, and one that a malformed cell ended forgets it at
   * the next walk's start.
   */
  private DecodedCell unsettled;

  private int unsettledAt;
  private int unsettledCommon;

  DeltaSeeker(EncodingContext context, DataBlockEncoding encoding) {
    this.context = context;
    this.in = new PayloadReader(encoding);
    this.tagDictionary = context.dictionaryCompressesTags() ? new TagDictionary() : null;
  }

  /** Reads what the encoding stores between the header and the first cell. */
  void readPreamble() {}

  /**
   * What decoding cells after the first needs from the block's start (read by {@link #readPreamble}
   * or {@link #decodeFirst}), packed for the block's index to keep.
   */
  long blockFacts() {
    return 0;
  }

  /** Takes back what {@link #blockFacts} returned for the current block. */
  void restoreBlockFacts(long facts) {}

  /** Decodes the first cell's key and value, up to its tags, into {@code target}. */
  abstract void decodeFirst(DecodedCell target);

  /**
   * Reads the header of the cell after {@code base} (its flags and lengths, up to the common
   * prefix), which the seeker keeps for {@link #decodeBody}, and returns how many leading key bytes
   * the cell shares with {@code base}, as the block stores it. Nothing is written to any cell, so
   * the caller may pick the cell to decode into from what it returns.
   */
  abstract int readHeader(DecodedCell base);

  /**
   * Reads what a DIFF or FAST_DIFF header holds after its flags: the key length and the value
   * length, each unless the flags say it repeats {@code base}'s, then the common prefix length;
   * keeps them as the header's and returns the common prefix length.
   */
  final int readLengths(boolean sameKeyLength, boolean sameValueLength, DecodedCell base) {
    headerKeyLength = sameKeyLength ? base.keyLength() : in.readCompressedInt("a key length");
    headerValueLength =
        sameValueLength ? base.valueLength() : in.readCompressedInt("a value length");
    headerCommon = in.readCompressedInt("a common prefix length");
    return headerCommon;
  }

  /**
   * Decodes the cell whose header {@link #readHeader} just read after {@code cell} over {@code
   * cell}, as {@link #decodeBody} would, but may leave the key bytes the block stores for it there
   * (see {@link #leaveKeyUnsettled}): its lengths are set and checked, so a seek can step over it
   * by them. Only a seek's walk over cells known to sort before the key calls it, each after the
   * other on the same cell, and settles the key before anything reads it. False, with nothing read,
   * when the cell must be decoded whole (its row length differs from the key before it).
   */
  abstract boolean decodeKeyLazily(DecodedCell cell);

  /**
   * Writes into {@code cell}'s key scratch the key bytes the block stores for it from the position,
   * after the {@code common} leading bytes it shares with the key before it, as decoding the cell
   * in place over that key would; the scratch holds those leading bytes.
   */
  abstract void rebuildKey(DecodedCell cell, int common);

  /**
   * Notes that {@code cell}'s key, decoded lazily, shares {@code common} leading bytes with the key
   * before it (which the scratch holds) and has the rest stored in the block from {@code storedAt}.
   * A key decoded lazily after it may share no more than that; one that shares more settles this
   * one first ({@link #settleBefore}).
   */
  final void leaveKeyUnsettled(DecodedCell cell, int storedAt, int common) {
    unsettled = cell;
    unsettledAt = storedAt;
    unsettledCommon = common;
  }

  /** Settles the unsettled key when a key sharing {@code common} bytes with it needs more of it. */
  final void settleBefore(int common) {
    if (unsettled != null && common > unsettledCommon) {
      settleKey();
    }
  }

  /** Writes the key bytes {@link #decodeKeyLazily} left in the block into the cell's key. */
  private void settleKey() {
    if (unsettled == null) {
      return;
    }
    DecodedCell cell = unsettled;
    unsettled = null;
    int position = in.position();
    in.position(unsettledAt);
    rebuildKey(cell, unsettledCommon);
    in.position(position);
  }

  /**
   * Decodes the key and value, up to the tags, of the cell whose header {@link #readHeader} just
   * read after {@code base}, into {@code target}. {@code target} may be {@code base} itself:
   * everything needed from {@code base} (its lengths, timestamp, type, value position) must be read
   * before {@code target} is written.
   */
  abstract void decodeBody(DecodedCell target, DecodedCell base);

  @Override
  public final void setBlock(MemorySegment segment, int length) {
    blockSet = false;
    valid = false;
    atFirstUndecoded = false;
    firstKeyUndecoded = false;
    checkpoints = null;
    in.reset(segment, length);
    in.expectEncodingId();
    in.readInt("the unencoded data size");
    readPreamble();
    firstCellAt = in.position();
    if (!in.hasRemaining()) {
      throw in.malformed(firstCellAt, "at least one cell", "the end of the payload");
    }
    decodeFromStart();
    firstKey.copyKeyOf(current);
    blockSet = true;
  }

  /**
   * Leaves the block's header, preamble and first cell unread: the index brings where the first
   * cell starts and the {@link #blockFacts}, and the first cell is decoded when a move needs it.
   */
  @Override
  public final void setIndexedBlock(MemorySegment segment, int length, SeekIndex index) {
    Checkpoints indexed = Checkpoints.of(index);
    if (indexed == null) {
      setBlock(segment, length);
      return;
    }
    blockSet = false;
    valid = false;
    aheadValid = false;
    in.reset(segment, length);
    checkpoints = indexed;
    firstCellAt = indexed.firstCellAt();
    restoreBlockFacts(indexed.blockFacts());
    atFirstUndecoded = true;
    firstKeyUndecoded = true;
    blockSet = true;
  }

  @Override
  public final SeekIndex indexBlock() {
    return indexBlock(Checkpoints.ROW_SHARE);
  }

  /** Checkpoints at rows' first cells as sparse as at other cells: 1/64 of the payload at most. */
  @Override
  public final SeekIndex indexBlockSparsely() {
    return indexBlock(Checkpoints.PAYLOAD_SHARE);
  }

  private SeekIndex indexBlock(int rowShare) {
    checkBlock();
    if (tagDictionary != null) {
      return null;
    }
    Checkpoints.Builder builder = checkpointBuilder.start(firstCellAt, rowShare);
    decodeFromStart();
    while (current.end() < in.limit()) {
      int start = current.end();
      DecodedCell spare = previous;
      int suffixAt = decode(spare, current);
      previous = current;
      current = spare;
      builder.cell(start, current, suffixAt, !CellComparator.sameRow(previous, current));
    }
    checkpoints = builder.build(blockFacts());
    decodeFromStart();
    return checkpoints;
  }

  @Override
  public final void useIndex(SeekIndex index) {
    checkBlock();
    checkpoints = Checkpoints.of(index);
  }

  @Override
  public final void rewind() {
    checkBlock();
    decodeFromStart();
  }

  @Override
  public final boolean next() {
    decodeFirstIfPending();
    if (!valid) {
      return false;
    }
    if (aheadValid) {
      stepForward();
      return true;
    }
    if (current.end() >= in.limit()) {
      valid = false;
      return false;
    }
    decode(current, current);
    return true;
  }

  @Override
  public final boolean isValid() {
    return valid || atFirstUndecoded;
  }

  @Override
  public final Cell current() {
    decodeFirstIfPending();
    if (!valid) {
      throw new IllegalStateException("the seeker is not positioned on a cell");
    }
    return current;
  }

  @Override
  public final Cell firstKeyInBlock() {
    checkBlock();
    if (firstKeyUndecoded) {
      int position = in.position();
      in.position(firstCellAt);
      decodeFirst(firstKey);
      firstKey.keepKeyOnly(in.position());
      in.position(position);
      firstKeyUndecoded = false;
    }
    return firstKey;
  }

  @Override
  public final int seekToKeyInBlock(Cell key, boolean seekBefore) {
    checkBlock();
    atFirstUndecoded = false;
    int comparison = valid ? compare(key, current) : 0;
    boolean forward = valid && PlainSeeker.qualifies(comparison, seekBefore);
    if (checkpoints != null) {
      int from = forward ? checkpoints.firstAtOrAfter(current.end()) : 0;
      int found = checkpoints.lastQualifying(key, seekBefore, from);
      if (found >= 0) {
        restore(found);
        comparison = compare(key, current);
        forward = true;
      }
    }
    if (!forward) {
      decodeFromStart();
      comparison = compare(key, current);
      if (!PlainSeeker.qualifies(comparison, seekBefore)) {
        return KEY_BEFORE_BLOCK;
      }
    }
    boolean rowDecides = false;
    int rowMatch = 0;
    unsettled = null;
    while (aheadValid || current.end() < in.limit()) {
      if (aheadValid) {
        stepForward();
      } else {
        int common = readHeaderAfter(current);
        if (rowDecides && sortsBeforeKey(common, rowMatch)) {
          if (decodeKeyLazily(current)) {
            finishBody(current, common);
          } else {
            settleKey();
            decodeBody(current, current, common);
          }
          continue;
        }
        settleKey();
        DecodedCell spare = previous;
        decodeBody(spare, current, common);
        previous = current;
        current = spare;
      }
      int shared = current.rowBytesShared();
      if (rowDecides && (shared > rowMatch || shared == current.rowLength())) {
        continue;
      }
      rowMatch =
          Bytes.mismatch(
              key.segment(),
              key.rowOffset(),
              key.rowLength(),
              current.segment(),
              current.rowOffset(),
              current.rowLength());
      int nextComparison = rowMatch < 0 ? 0 : rowOrder(key, current, rowMatch);
      rowDecides = nextComparison != 0;
      if (!rowDecides) {
        nextComparison = compare(key, current);
      }
      if (!PlainSeeker.qualifies(nextComparison, seekBefore)) {
        stepBack();
        break;
      }
      comparison = nextComparison;
    }
    settleKey();
    return comparison == 0 ? EXACT : BEFORE;
  }

  /**
   * The row collection of the delta encodings (see {@link BlockSeeker#collectLatestPuts}): each
   * step decodes the next cell in place, as {@link #next()} does, and the row, type, timestamp and
   * qualifier are read from the rebuilt key; the qualifier of the column taken last is compared
   * with the sink's copy of it (the scratch it was rebuilt in moves on).
   */
  @Override
  public final int collectLatestPuts(
      MemorySegment row,
      long rowOffset,
      int rowLength,
      long minTimestamp,
      long maxTimestamp,
      RowCellSink sink) {
    decodeFirstIfPending();
    if (!valid) {
      throw new IllegalStateException("the seeker is not positioned on a cell");
    }
    Cell taken = sink.lastTaken();
    while (true) {
      DecodedCell cell = current;
      if (!Bytes.equals(
          cell.segment(), cell.rowOffset(), cell.rowLength(), row, rowOffset, rowLength)) {
        return ROW_ENDED;
      }
      if (cell.typeByte() != PUT_CODE) {
        return GAVE_UP;
      }
      if (taken == null
          || !Bytes.equals(
              cell.segment(),
              cell.qualifierOffset(),
              cell.qualifierLength(),
              taken.segment(),
              taken.qualifierOffset(),
              taken.qualifierLength())) {
        long timestamp = cell.timestamp();
        if (timestamp >= maxTimestamp || timestamp < minTimestamp) {
          return GAVE_UP;
        }
        sink.take(cell);
        taken = sink.lastTaken();
      }
      if (!aheadValid && current.end() >= in.limit()) {
        return BLOCK_ENDED;
      }
      next();
    }
  }

  /**
   * Whether the cell after the current one, sharing {@code common} leading key bytes with it, sorts
   * before the key by that alone, when the current cell's row sorts before the key's and first
   * differs from it at row byte {@code rowMatch}: the next cell has the current one's row, or
   * shares more of it than that. Such a cell is decoded over the current one: a seek never steps
   * back to the cell before it, and only the bytes that changed are written, not the shared prefix
   * copied into a spare.
   */
  private boolean sortsBeforeKey(int common, int rowMatch) {
    int shared = rowBytesShared(common, current.rowLength());
    return shared >= 0 && (shared > rowMatch || shared == current.rowLength());
  }

  /**
   * The row bytes a key sharing {@code common} leading bytes with one of row length {@code
   * rowLength} shares with that row; -1 when it does not share the row length.
   */
  private static int rowBytesShared(int common, int rowLength) {
    return common < KeyValueLayout.ROW_LENGTH_SIZE
        ? -1
        : Math.min(common - KeyValueLayout.ROW_LENGTH_SIZE, rowLength);
  }

  /**
   * Restores the checkpoint after the last one not after {@code key} when it is the first cell of
   * {@code key}'s row (so it is the first cell after the key, every cell before it in an earlier
   * row): a Get lands on its row without decoding the cells before it.
   */
  @Override
  public final boolean seekToRowStart(Cell key) {
    checkBlock();
    if (checkpoints == null) {
      return false;
    }
    int checkpoint = checkpoints.lastQualifying(key, false, 0) + 1;
    if (checkpoint >= checkpoints.count()
        || !checkpoints.startsRow(checkpoint)
        || !checkpoints.sameRow(checkpoint, key)) {
      return false;
    }
    restore(checkpoint);
    atFirstUndecoded = false;
    return true;
  }

  /**
   * Makes checkpoint {@code checkpoint} the current cell: its key copied back, its value and suffix
   * read where the checkpoint says, as decoding it in a walk from the block's start left them.
   */
  private void restore(int checkpoint) {
    valid = false;
    aheadValid = false;
    int keyLength = checkpoints.keyLength(checkpoint);
    MemorySegment key = current.prepareKey(keyLength);
    checkpoints.copyKey(checkpoint, current.keyArray(), KeyValueLayout.KEY_OFFSET);
    int rowLength = KeyValueLayout.rowLength(key, KeyValueLayout.KEY_OFFSET);
    int familyLength =
        KeyValueLayout.familyLength(
            key, KeyValueLayout.familyLengthOffset(KeyValueLayout.KEY_OFFSET, rowLength));
    current.setKey(keyLength, rowLength, familyLength);
    current.setRowBytesShared(-1);
    current.setValue(
        in.segment(), checkpoints.valueOffset(checkpoint), checkpoints.valueLength(checkpoint));
    in.position(checkpoints.suffixAt(checkpoint));
    readSuffix(current);
    valid = true;
  }

  /**
   * Decodes the cell after {@code base} into {@code target}, which may be {@code base} itself;
   * returns the payload offset of the cell's suffix.
   */
  private int decode(DecodedCell target, DecodedCell base) {
    return decodeBody(target, base, readHeaderAfter(base));
  }

  /** Reads the header of the cell after {@code base}; returns its common prefix length. */
  private int readHeaderAfter(DecodedCell base) {
    valid = false;
    in.position(base.end());
    return readHeader(base);
  }

  /**
   * Decodes the rest of the cell whose header {@link #readHeaderAfter} read, sharing {@code common}
   * leading key bytes with {@code base}, into {@code target}; returns the payload offset of its
   * suffix.
   */
  private int decodeBody(DecodedCell target, DecodedCell base, int common) {
    decodeBody(target, base);
    return finishBody(target, common);
  }

  /**
   * Reads the suffix of the cell whose key and value were just decoded into {@code target}, sharing
   * {@code common} leading key bytes with the cell before it; returns the payload offset of its
   * suffix.
   */
  private int finishBody(DecodedCell target, int common) {
    target.setRowBytesShared(rowBytesShared(common, target.rowLength()));
    int suffixAt = in.position();
    readSuffix(target);
    valid = true;
    return suffixAt;
  }

  private void stepForward() {
    DecodedCell spare = previous;
    previous = current;
    current = ahead;
    ahead = spare;
    aheadValid = false;
  }

  private void stepBack() {
    DecodedCell spare = ahead;
    ahead = current;
    current = previous;
    previous = spare;
    aheadValid = true;
  }

  /**
   * The order of {@code key}'s row against {@code cell}'s, which first differ at row byte {@code
   * at} (or where the shorter ends).
   */
  private static int rowOrder(Cell key, Cell cell, int at) {
    if (at < key.rowLength() && at < cell.rowLength()) {
      return Byte.toUnsignedInt(key.segment().get(ValueLayout.JAVA_BYTE, key.rowOffset() + at))
          - Byte.toUnsignedInt(cell.segment().get(ValueLayout.JAVA_BYTE, cell.rowOffset() + at));
    }
    return key.rowLength() - cell.rowLength();
  }

  private static int compare(Cell key, DecodedCell cell) {
    return CellComparator.compareKeyIgnoringSequenceId(key, cell);
  }

  /** Decodes the first cell when the seeker is on it but has not decoded it yet. */
  private void decodeFirstIfPending() {
    if (atFirstUndecoded) {
      decodeFromStart();
    }
  }

  private void decodeFromStart() {
    atFirstUndecoded = false;
    valid = false;
    aheadValid = false;
    if (tagDictionary != null) {
      tagDictionary.clear();
    }
    in.position(firstCellAt);
    decodeFirst(current);
    current.setRowBytesShared(-1);
    readSuffix(current);
    valid = true;
  }

  private void readSuffix(DecodedCell target) {
    if (context.includesTags()) {
      int at = in.position();
      int tagsLength = in.readCompressedInt("a tags length");
      if (tagsLength > KeyValueLayout.MAX_TAGS_LENGTH) {
        throw in.malformed(
            at,
            "a tags length of at most " + KeyValueLayout.MAX_TAGS_LENGTH,
            "tags length " + tagsLength);
      }
      if (tagDictionary != null) {
        MemorySegment tags = target.prepareTags(tagsLength);
        TagCompression.decompress(in, tagDictionary, tags, tagsLength);
        target.setTags(true, tags, 0, tagsLength);
      } else {
        target.setTags(true, in.segment(), in.require(tagsLength, "tags"), tagsLength);
      }
    } else {
      target.setTags(false, in.segment(), in.position(), 0);
    }
    long sequenceId = context.includesMvcc() ? in.readVLong("an mvcc vlong") : 0;
    target.setEnd(sequenceId, in.position());
  }

  /**
   * Reads a key stored whole ({@code keyLength} bytes) into {@code target}: the first cell of
   * PREFIX and FAST_DIFF blocks.
   */
  final void readWholeKey(DecodedCell target, int keyLength) {
    int at = in.position();
    if (keyLength > in.remaining()) {
      throw in.malformed(
          at, "a key of at most " + in.remaining() + " bytes", "key length " + keyLength);
    }
    MemorySegment key = target.prepareKey(keyLength);
    in.copyTo(keyLength, target.keyArray(), KeyValueLayout.KEY_OFFSET, "the key");
    checkKey(target, at, keyLength, key);
  }

  /**
   * Reads the key of a DIFF or FAST_DIFF cell up to its timestamp into {@code target}: the first
   * {@code common} bytes of the previous key ({@code base}, null for the first cell, which shares
   * nothing; already in place when {@code target} is {@code base}), then {@link
   * DeltaEncoder#writeKeyRemainder what the encoder stored}, with the family (its length byte at
   * payload offset {@code familyAt}) when the rows differ. A prefix that shares the row must share
   * the family too, as HBase's encoders always make it, so that every key's family is the block's;
   * a key whose row has the previous row's length therefore has the family where the previous key
   * has it, and takes it from there (in place, or with the prefix in one array copy) rather than
   * from the block. The caller writes the timestamp and type.
   */
  final MemorySegment readKeyBeforeTimestamp(
      DecodedCell target,
      DecodedCell base,
      int common,
      int keyLength,
      int familyAt,
      int familyLength) {
    int at = in.position();
    checkSharedPrefix(at, base, common, keyLength);
    MemorySegment key = target.prepareKey(keyLength);
    byte[] keyArray = target.keyArray();
    int keyAt = KeyValueLayout.KEY_OFFSET;
    boolean sameRowLength = common >= KeyValueLayout.ROW_LENGTH_SIZE;
    int rowLength;
    if (sameRowLength) {
      rowLength = base.rowLength();
    } else {
      if (common > 0 && target != base) {
        System.arraycopy(base.keyArray(), keyAt, keyArray, keyAt, common);
      }
      copyKeyBytes(
          KeyValueLayout.ROW_LENGTH_SIZE - common, keyArray, keyAt + common, "the row length");
      rowLength = KeyValueLayout.rowLength(key, keyAt);
    }
    int rowEnd = KeyValueLayout.ROW_LENGTH_SIZE + rowLength;
    int familyEnd = rowEnd + KeyValueLayout.FAMILY_LENGTH_SIZE + familyLength;
    int qualifierLength = checkQualifierLength(at, keyLength, rowLength, familyLength);
    if (common < rowEnd) {
      int from = Math.max(common, KeyValueLayout.ROW_LENGTH_SIZE);
      if (!sameRowLength) {
        copyKeyBytes(rowEnd - from, keyArray, keyAt + from, "the row");
      } else {
        if (target != base) {
          System.arraycopy(base.keyArray(), keyAt, keyArray, keyAt, familyEnd);
        }
        copyRowTailKeepingFamily(rowEnd - from, keyArray, keyAt + from, keyAt + rowEnd);
      }
      if (!sameRowLength) {
        MemorySegment.copy(
            in.segment(),
            ValueLayout.JAVA_BYTE,
            familyAt,
            keyArray,
            keyAt + rowEnd,
            familyEnd - rowEnd);
      }
      copyKeyBytes(qualifierLength, keyArray, keyAt + familyEnd, "the qualifier");
    } else {
      checkPrefixCoversFamily(at, common, familyEnd);
      if (target != base) {
        System.arraycopy(base.keyArray(), keyAt, keyArray, keyAt, common);
      }
      int prefixEnd = keyLength - TIMESTAMP_AND_TYPE_SIZE;
      copyKeyBytes(prefixEnd - common, keyArray, keyAt + common, "the qualifier");
    }
    target.setKey(keyLength, rowLength, familyLength);
    return key;
  }

  /**
   * Steps over the key bytes a DIFF or FAST_DIFF cell stores up to its timestamp, as {@link
   * #readKeyBeforeTimestamp} with {@code cell} as both target and base would read them, checking
   * the same, but writes none of them: for a cell sharing its row length with {@code cell} (at
   * least {@value KeyValueLayout#ROW_LENGTH_SIZE} common bytes), decoded lazily. Sets the key's
   * lengths; the caller writes the timestamp and type.
   */
  final MemorySegment skipKeyBeforeTimestamp(
      DecodedCell cell, int common, int keyLength, int familyLength) {
    int at = in.position();
    checkSharedPrefix(at, cell, common, keyLength);
    int rowLength = cell.rowLength();
    int rowEnd = KeyValueLayout.ROW_LENGTH_SIZE + rowLength;
    int qualifierLength = checkQualifierLength(at, keyLength, rowLength, familyLength);
    int stored;
    if (common < rowEnd) {
      stored = rowEnd - common + qualifierLength;
    } else {
      checkPrefixCoversFamily(
          at, common, rowEnd + KeyValueLayout.FAMILY_LENGTH_SIZE + familyLength);
      stored = keyLength - TIMESTAMP_AND_TYPE_SIZE - common;
    }
    in.require(stored, "the key");
    MemorySegment key = cell.prepareKey(keyLength);
    cell.setKey(keyLength, rowLength, familyLength);
    return key;
  }

  /**
   * Writes the key bytes of a DIFF or FAST_DIFF cell that {@link #skipKeyBeforeTimestamp} stepped
   * over into its scratch, keeping the timestamp and type written since (the writes may run into
   * them).
   */
  final void rebuildKeyBeforeTimestamp(
      DecodedCell cell, int common, int familyAt, int familyLength) {
    long timestamp = cell.timestamp();
    byte type = cell.typeByte();
    int keyLength = cell.keyLength();
    MemorySegment key =
        readKeyBeforeTimestamp(cell, cell, common, keyLength, familyAt, familyLength);
    key.set(ByteLayouts.LONG_BE, timestampAt(keyLength), timestamp);
    key.set(ByteLayouts.BYTE, typeAt(keyLength), type);
  }

  /**
   * Checks that a key of {@code keyLength} bytes sharing {@code common} with {@code base}'s (none
   * for the first cell, {@code base} null) can be so; {@code at} is where its bytes start.
   */
  private void checkSharedPrefix(int at, DecodedCell base, int common, int keyLength) {
    int baseLimit = base == null ? 0 : base.keyLength() - TIMESTAMP_AND_TYPE_SIZE;
    if (keyLength < KeyValueLayout.KEY_INFRASTRUCTURE_SIZE
        || common > keyLength - TIMESTAMP_AND_TYPE_SIZE
        || common > baseLimit
        || (long) keyLength - common > (long) in.remaining() + MAX_KEY_BYTES_OUTSIDE_CELL) {
      throw in.malformed(
          at,
          "a key of at least "
              + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE
              + " bytes sharing at most "
              + baseLimit
              + " bytes with the previous key",
          "key length " + keyLength + ", common prefix " + common);
    }
  }

  /** The qualifier length of a key so made up, checked not to be negative. */
  private int checkQualifierLength(int at, int keyLength, int rowLength, int familyLength) {
    int qualifierLength = KeyValueLayout.qualifierLength(keyLength, rowLength, familyLength);
    if (rowLength < 0 || qualifierLength < 0) {
      throw in.malformed(
          at,
          "a row of at most "
              + (keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE - familyLength)
              + " bytes",
          "row length " + rowLength + " in a key of " + keyLength + " bytes");
    }
    return qualifierLength;
  }

  /** Checks that a prefix reaching past the row covers the family too. */
  private void checkPrefixCoversFamily(int at, int common, int familyEnd) {
    if (common < familyEnd) {
      throw in.malformed(
          at,
          "a common prefix covering the whole row and family (" + familyEnd + " bytes)",
          "common prefix " + common);
    }
  }

  /**
   * Copies {@code count} key bytes from the block into the key scratch at {@code at}; up to eight
   * with one store that may overwrite the eight bytes after them, which every caller of {@link
   * #readKeyBeforeTimestamp} writes afterwards (the row, family, qualifier, timestamp and type
   * follow each other, and the key ends with the nine bytes of the timestamp and type).
   */
  private void copyKeyBytes(int count, byte[] keyArray, int at, String what) {
    if (count <= Long.BYTES && PayloadReader.roomToCopyOver(keyArray, at)) {
      in.copyOver(count, keyArray, at, what);
    } else {
      in.copyTo(count, keyArray, at, what);
    }
  }

  /**
   * Copies the {@code count} changed bytes of a row that keeps its length (and the family after it,
   * already in place at {@code familyAt}) into the key scratch at {@code at}: up to eight with one
   * store, the eight bytes from {@code familyAt} saved before and put back after it.
   */
  private void copyRowTailKeepingFamily(int count, byte[] keyArray, int at, int familyAt) {
    if (count <= Long.BYTES && PayloadReader.roomToCopyOver(keyArray, familyAt)) {
      long family = Bytes.toLong(keyArray, familyAt);
      in.copyOver(count, keyArray, at, "the row");
      Bytes.putLong(keyArray, familyAt, family);
    } else {
      in.copyTo(count, keyArray, at, "the row");
    }
  }

  /** Sets {@code target}'s value to {@code valueLength} bytes read at the current position. */
  final void readValue(DecodedCell target, int valueLength) {
    target.setValue(in.segment(), in.require(valueLength, "the value"), valueLength);
  }

  /** Returns the position of the type byte in a key scratch holding a key of this length. */
  static long typeAt(int keyLength) {
    return KeyValueLayout.typeOffset(KeyValueLayout.KEY_OFFSET, keyLength);
  }

  /** Returns the position of the timestamp in a key scratch holding a key of this length. */
  static long timestampAt(int keyLength) {
    return KeyValueLayout.timestampOffset(KeyValueLayout.KEY_OFFSET, keyLength);
  }

  /** Reads the type byte into the key, or writes {@code previousType} when {@code sameType}. */
  final void readType(MemorySegment key, int keyLength, boolean sameType, byte previousType) {
    byte type = sameType ? previousType : in.readByte("the type");
    key.set(ByteLayouts.BYTE, typeAt(keyLength), type);
  }

  /**
   * Checks the lengths of a key rebuilt whole in {@code target}'s scratch ({@code key}) and sets
   * them; {@code at} is where the cell's key bytes start in the payload, for messages.
   */
  final void checkKey(DecodedCell target, int at, int keyLength, MemorySegment key) {
    int available = keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
    int rowLength = KeyValueLayout.rowLength(key, KeyValueLayout.KEY_OFFSET);
    boolean rowFits = available >= 0 && rowLength >= 0 && rowLength <= available;
    int familyLength =
        rowFits
            ? KeyValueLayout.familyLength(
                key, KeyValueLayout.familyLengthOffset(KeyValueLayout.KEY_OFFSET, rowLength))
            : 0;
    checkKey(target, at, keyLength, rowLength, familyLength);
  }

  /**
   * Checks the lengths of a key of {@code keyLength} bytes whose row and family lengths the caller
   * read ({@code familyLength} -1 when the key ends before it), and sets them in {@code target}.
   */
  final void checkKey(DecodedCell target, int at, int keyLength, int rowLength, int familyLength) {
    int available = keyLength - KeyValueLayout.KEY_INFRASTRUCTURE_SIZE;
    boolean rowFits = available >= 0 && rowLength >= 0 && rowLength <= available;
    if (!rowFits || familyLength < 0 || familyLength > available - rowLength) {
      throw in.malformed(
          at,
          "a key of at least "
              + KeyValueLayout.KEY_INFRASTRUCTURE_SIZE
              + " bytes whose row and family fit in it",
          "key length "
              + keyLength
              + ", row length "
              + rowLength
              + ", family length "
              + familyLength);
    }
    target.setKey(keyLength, rowLength, familyLength);
  }

  private void checkBlock() {
    if (!blockSet) {
      throw new IllegalStateException("no block was set, or the last one set was malformed");
    }
  }
}

package dev.cellar.store;

import java.util.UUID;

/**
 * Names of bulk-loaded store files, as HBase gives them: {@code <32 hex digits>_SeqId_<n>_}, where
 * {@code n} is the sequence id the whole file was loaded at. The name is what makes a file
 * bulk-loaded: its sequence id comes from the name, not from its file info, and every cell of it
 * reads with that id (HBase's {@code StoreFileInfo.formatBulkloadSeqId} and {@code
 * getBulkloadSeqId}). Stateless.
 */
final class BulkLoadNames {

  static final String SEQ_ID_MARK = "_SeqId_";

  private BulkLoadNames() {}

  /** A new file name for a file loaded at {@code sequenceId}. */
  static String newName(long sequenceId) {
    return UUID.randomUUID().toString().replace("-", "") + SEQ_ID_MARK + sequenceId + "_";
  }

  /**
   * The sequence id a bulk-loaded file's name carries, or -1 if the name carries none (a file
   * written by a flush or compaction).
   */
  static long sequenceId(String fileName) {
    int mark = fileName.indexOf(SEQ_ID_MARK);
    if (mark < 0) {
      return -1;
    }
    int start = mark + SEQ_ID_MARK.length();
    int end = fileName.indexOf('_', start);
    try {
      return Long.parseLong(fileName.substring(start, end < 0 ? fileName.length() : end));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}

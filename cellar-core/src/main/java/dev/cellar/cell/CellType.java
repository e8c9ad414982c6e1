package dev.cellar.cell;

/**
 * The type of a cell, with HBase's KeyValue type codes (the last byte of every key). Immutable and
 * thread-safe.
 *
 * <p>Cells of one coordinate sort by type code descending ({@link CellComparator}): {@link
 * #MAXIMUM} first, then the delete markers, then {@link #PUT}, then {@link #MINIMUM}. {@code
 * MAXIMUM} and {@code MINIMUM} never hold data; they build keys that sort before or after every
 * real cell of a row or column.
 */
public enum CellType {
  /** Sorts after every other type; with an empty column it marks the end of a row. */
  MINIMUM(0),
  /** A value. */
  PUT(4),
  /** Deletes one version of one column. */
  DELETE(8),
  /** Deletes one version of every column of a family. */
  DELETE_FAMILY_VERSION(10),
  /** Deletes all versions of one column up to a timestamp. */
  DELETE_COLUMN(12),
  /** Deletes all versions of every column of a family up to a timestamp. */
  DELETE_FAMILY(14),
  /** Sorts before every other type; used for keys that seek to the start of a row or column. */
  MAXIMUM(255);

  private static final CellType[] BY_CODE = new CellType[256];

  static {
    for (CellType type : values()) {
      BY_CODE[type.code & 0xFF] = type;
    }
  }

  private final byte code;

  CellType(int code) {
    this.code = (byte) code;
  }

  /** Returns the code stored in a key: {@code 0, 4, 8, 10, 12, 14} or {@code (byte) 255}. */
  public byte code() {
    return code;
  }

  /**
   * Returns the type with the given code.
   *
   * @throws IllegalArgumentException if {@code code} is not one of HBase's type codes
   */
  public static CellType fromCode(byte code) {
    CellType type = find(code);
    if (type == null) {
      throw new IllegalArgumentException(
          "unknown cell type code "
              + (code & 0xFF)
              + ": expected one of 0 (Minimum), 4 (Put), 8 (Delete), 10 (DeleteFamilyVersion),"
              + " 12 (DeleteColumn), 14 (DeleteFamily), 255 (Maximum)");
    }
    return type;
  }

  /** Returns the type with the given code, or {@code null} if HBase defines none. */
  static CellType find(byte code) {
    return BY_CODE[code & 0xFF];
  }

  /** Returns the name HBase prints for this type ({@code Put}, {@code DeleteColumn}, ...). */
  public String hbaseName() {
    return switch (this) {
      case MINIMUM -> "Minimum";
      case PUT -> "Put";
      case DELETE -> "Delete";
      case DELETE_FAMILY_VERSION -> "DeleteFamilyVersion";
      case DELETE_COLUMN -> "DeleteColumn";
      case DELETE_FAMILY -> "DeleteFamily";
      case MAXIMUM -> "Maximum";
    };
  }
}

package dev.cellar.hfile.bloom;

import dev.cellar.cell.CellComparator;
import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Random cells of one column family in file order, shaped for bloom tests: rows with shared
 * prefixes (so row prefixes repeat), bytes on both sides of 0x80, several qualifiers and versions
 * per row (so keys repeat), DeleteFamily and DeleteFamilyVersion markers with empty qualifiers.
 */
final class BloomCells {

  static final byte[] FAMILY = {'f'};

  private static final byte[] ALPHABET = {0x00, 'a', 'b', 'r', 0x7F, (byte) 0x80, (byte) 0xFF};

  /** One cell as our KeyValue and as HBase's. */
  record Pair(KeyValue ours, org.apache.hadoop.hbase.KeyValue hbase) {}

  private BloomCells() {}

  /** {@code rows} distinct rows with 1..6 cells each, sorted in HBase's cell order. */
  static List<Pair> generate(Random random, int rows) {
    TreeSet<byte[]> distinctRows = new TreeSet<>(Arrays::compareUnsigned);
    while (distinctRows.size() < rows) {
      distinctRows.add(randomRow(random));
    }
    List<KeyValue> cells = new ArrayList<>();
    for (byte[] row : distinctRows) {
      int count = 1 + random.nextInt(6);
      for (int i = 0; i < count; i++) {
        cells.add(randomCell(random, row));
      }
    }
    cells.sort(CellComparator.IGNORING_SEQUENCE_ID);
    List<Pair> pairs = new ArrayList<>(cells.size());
    for (KeyValue cell : cells) {
      pairs.add(new Pair(cell, toHBase(cell)));
    }
    return pairs;
  }

  static byte[] randomRow(Random random) {
    byte[] row = new byte[1 + random.nextInt(9)];
    for (int i = 0; i < row.length; i++) {
      row[i] = ALPHABET[random.nextInt(i == 0 ? 3 : ALPHABET.length)];
    }
    return row;
  }

  static byte[] randomQualifier(Random random) {
    byte[] qualifier = new byte[random.nextInt(5)];
    for (int i = 0; i < qualifier.length; i++) {
      qualifier[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return qualifier;
  }

  private static KeyValue randomCell(Random random, byte[] row) {
    long timestamp = random.nextInt(4);
    return switch (random.nextInt(8)) {
      case 0 ->
          KeyValue.create(row, FAMILY, new byte[0], timestamp, CellType.DELETE_FAMILY, new byte[0]);
      case 1 ->
          KeyValue.create(
              row, FAMILY, new byte[0], timestamp, CellType.DELETE_FAMILY_VERSION, new byte[0]);
      case 2 ->
          KeyValue.create(
              row, FAMILY, randomQualifier(random), timestamp, CellType.DELETE_COLUMN, new byte[0]);
      default ->
          KeyValue.create(
              row, FAMILY, randomQualifier(random), timestamp, CellType.PUT, new byte[] {1});
    };
  }

  static org.apache.hadoop.hbase.KeyValue toHBase(KeyValue cell) {
    return new org.apache.hadoop.hbase.KeyValue(
        cell.rowArray(),
        cell.familyArray(),
        cell.qualifierArray(),
        cell.timestamp(),
        org.apache.hadoop.hbase.KeyValue.Type.codeToType(cell.typeByte()),
        cell.valueArray());
  }
}

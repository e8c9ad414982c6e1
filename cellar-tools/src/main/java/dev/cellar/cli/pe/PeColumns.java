package dev.cellar.cli.pe;

import dev.cellar.Get;
import dev.cellar.Scan;

/**
 * The families and qualifiers of a PE table ({@code --families}, {@code --columns}), as byte arrays
 * made once, and how reads ask for them: every column named, as PE does with its default {@code
 * --addColumns}.
 */
final class PeColumns {

  private final byte[][] families;
  private final byte[][] qualifiers;

  PeColumns(int families, int columns) {
    this.families = new byte[families][];
    for (int f = 0; f < families; f++) {
      this.families[f] = PeData.family(f);
    }
    this.qualifiers = new byte[columns][];
    for (int c = 0; c < columns; c++) {
      this.qualifiers[c] = PeData.qualifier(c);
    }
  }

  byte[][] families() {
    return families;
  }

  byte[][] qualifiers() {
    return qualifiers;
  }

  void addTo(Get get) {
    for (byte[] family : families) {
      for (byte[] qualifier : qualifiers) {
        get.addColumn(family, qualifier);
      }
    }
  }

  void addTo(Scan scan) {
    for (byte[] family : families) {
      for (byte[] qualifier : qualifiers) {
        scan.addColumn(family, qualifier);
      }
    }
  }

  /** Only the first family's columns, as PE's filterScan asks. */
  void addFirstFamilyTo(Scan scan) {
    for (byte[] qualifier : qualifiers) {
      scan.addColumn(families[0], qualifier);
    }
  }
}

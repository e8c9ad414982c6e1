package dev.cellar.hfile.encoding;

import dev.cellar.cell.CellType;
import dev.cellar.cell.KeyValue;
import dev.cellar.cell.Tag;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.ArrayBackedTag;

/** One cell's content, buildable as our {@link KeyValue} and as HBase's. */
record CellSpec(
    byte[] row,
    byte[] family,
    byte[] qualifier,
    long timestamp,
    CellType type,
    byte[] value,
    List<Tag> tags,
    long sequenceId) {

  KeyValue toKeyValue() {
    return KeyValue.create(row, family, qualifier, timestamp, type, value, tags)
        .withSequenceId(sequenceId);
  }

  org.apache.hadoop.hbase.KeyValue toHBase() {
    List<org.apache.hadoop.hbase.Tag> hbaseTags = new ArrayList<>();
    for (Tag tag : tags) {
      hbaseTags.add(new ArrayBackedTag(tag.type(), tag.value()));
    }
    org.apache.hadoop.hbase.KeyValue kv =
        new org.apache.hadoop.hbase.KeyValue(
            row,
            family,
            qualifier,
            timestamp,
            org.apache.hadoop.hbase.KeyValue.Type.codeToType(type.code()),
            value,
            hbaseTags);
    kv.setSequenceId(sequenceId);
    return kv;
  }
}

package dev.cellar.cache;

import dev.cellar.memory.Buf;
import java.io.IOException;

/** Rebuilds a {@link TestBlock}; its one metadata byte is the block's category ordinal. */
public final class TestBlockDeserializer implements CacheableDeserializer {

  static final TestBlockDeserializer INSTANCE = new TestBlockDeserializer();

  @Override
  public String name() {
    return "test-block";
  }

  @Override
  public int metadataLength() {
    return 1;
  }

  @Override
  public Cacheable deserialize(Buf content, Buf metadata, int metadataIndex) throws IOException {
    int ordinal = metadata.getByte(metadataIndex);
    BlockCategory[] categories = BlockCategory.values();
    if (ordinal < 0 || ordinal >= categories.length) {
      throw new IOException("test block category ordinal " + ordinal + " out of range");
    }
    return new TestBlock(content, categories[ordinal]);
  }
}

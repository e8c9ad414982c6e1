package dev.cellar.server.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cellar.testing.TestSeed;
import dev.cellar.testing.TestSeedExtension;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link GetRequestBytes}: in a serialized GetRequest it finds the region name and the row, and two
 * Gets differing only in their row have the same shape while any other difference (a column,
 * versions, a time range, a filter, existence only) changes it; requests it does not read (an
 * encoded region name, no row, an unknown field, truncated or random bytes) are refused, never
 * misread. Random bytes use a printed seed.
 */
@ExtendWith(TestSeedExtension.class)
class GetRequestBytesTest {

  private static final byte[] REGION =
      "t,,1700000000000.0123456789abcdef0123456789abcdef.".getBytes(StandardCharsets.UTF_8);

  private static ClientProtos.GetRequest request(ClientProtos.Get.Builder get) {
    return ClientProtos.GetRequest.newBuilder()
        .setRegion(
            HBaseProtos.RegionSpecifier.newBuilder()
                .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
                .setValue(ByteString.copyFrom(REGION)))
        .setGet(get)
        .build();
  }

  private static ClientProtos.Get.Builder get(String row) {
    return ClientProtos.Get.newBuilder()
        .setRow(ByteString.copyFromUtf8(row))
        .addColumn(ClientProtos.Column.newBuilder().setFamily(ByteString.copyFromUtf8("info0")))
        .setMaxVersions(1)
        .setCacheBlocks(true);
  }

  /** A direct buffer holding {@code bytes} between a few bytes before and after. */
  private static ByteBuffer framed(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length + 10);
    buffer.position(5);
    buffer.put(bytes);
    buffer.put(new byte[] {1, 2, 3, 4, 5});
    return buffer.position(5).limit(5 + bytes.length);
  }

  private static GetRequestBytes parsed(ClientProtos.GetRequest request) {
    GetRequestBytes bytes = new GetRequestBytes();
    assertTrue(bytes.parse(framed(request.toByteArray())), request.toString());
    return bytes;
  }

  @Test
  void theRegionAndTheRowAreFoundAndTheShapeIsAllButTheRow() {
    GetRequestBytes first = parsed(request(get("row-1")));
    assertTrue(first.regionIs(REGION));
    assertFalse(first.regionIs(Arrays.copyOf(REGION, REGION.length - 1)));
    assertArrayEquals("row-1".getBytes(StandardCharsets.UTF_8), first.row());
    byte[] shape = first.copyShape(new byte[0]);
    int length = first.shapeLength();
    assertTrue(first.shapeIs(shape, length));

    GetRequestBytes other = parsed(request(get("another-row-2")));
    assertTrue(other.shapeIs(shape, length), "only the row differs");
    for (ClientProtos.Get.Builder changed :
        new ClientProtos.Get.Builder[] {
          get("row-1").setMaxVersions(3),
          get("row-1").setCacheBlocks(false),
          get("row-1").setExistenceOnly(true),
          get("row-1").setTimeRange(HBaseProtos.TimeRange.newBuilder().setFrom(5)),
          get("row-1")
              .addColumn(ClientProtos.Column.newBuilder().setFamily(ByteString.copyFromUtf8("g"))),
          get("row-1")
              .setFilter(
                  org.apache.hadoop.hbase.shaded.protobuf.generated.FilterProtos.Filter.newBuilder()
                      .setName("org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter"))
        }) {
      assertFalse(parsed(request(changed)).shapeIs(shape, length), changed.toString());
    }
  }

  @Test
  void requestsItDoesNotReadAreRefused() {
    GetRequestBytes bytes = new GetRequestBytes();
    ClientProtos.GetRequest encoded =
        request(get("r")).toBuilder()
            .setRegion(
                HBaseProtos.RegionSpecifier.newBuilder()
                    .setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.ENCODED_REGION_NAME)
                    .setValue(ByteString.copyFromUtf8("0123")))
            .build();
    assertFalse(bytes.parse(framed(encoded.toByteArray())), "an encoded region name");
    assertFalse(
        bytes.parse(
            framed(
                ClientProtos.GetRequest.newBuilder()
                    .setRegion(request(get("r")).getRegion())
                    .setGet(get("r").clearRow().buildPartial())
                    .buildPartial()
                    .toByteArray())),
        "no row");
    assertFalse(
        bytes.parse(
            framed(
                request(get("r")).toBuilder()
                    .setUnknownFields(
                        org.apache.hbase.thirdparty.com.google.protobuf.UnknownFieldSet.newBuilder()
                            .addField(
                                7,
                                org.apache.hbase.thirdparty.com.google.protobuf.UnknownFieldSet
                                    .Field.newBuilder()
                                    .addVarint(1)
                                    .build())
                            .build())
                    .build()
                    .toByteArray())),
        "an unknown field");
    byte[] whole = request(get("row-1")).toByteArray();
    for (int cut = 0; cut < whole.length; cut++) {
      assertFalse(bytes.parse(framed(Arrays.copyOf(whole, cut))), "cut at " + cut);
    }
    assertTrue(bytes.parse(framed(whole)));
  }

  @Test
  void randomBytesAreRefusedOrReadWithinTheirBounds(TestSeed seed) {
    SplittableRandom random = new SplittableRandom(seed.value());
    byte[] whole = request(get("row-1")).toByteArray();
    GetRequestBytes bytes = new GetRequestBytes();
    for (int i = 0; i < 20_000; i++) {
      byte[] mutated = whole.clone();
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
      }
      if (bytes.parse(framed(mutated))) {
        assertTrue(bytes.rowOffset >= 5 && bytes.rowOffset + bytes.rowLength <= 5 + mutated.length);
        assertTrue(
            bytes.regionOffset >= 5
                && bytes.regionOffset + bytes.regionLength <= 5 + mutated.length);
        assertEquals(bytes.rowLength, bytes.row().length);
      }
    }
  }
}

package dev.timelake.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Coverage bytes follow the 64-bit Roaring portable format and TSTECOV2, byte for byte. */
class CoverageFormatTest {
  /**
   * Ids {0, 1, 2, 4, 5} by the RoaringFormatSpec's 64-bit extension, written by hand: one bucket
   * (u64 LE), high key 0 (u32 LE), then a 32-bit portable bitmap: cookie 12346 (u32 LE), one
   * container, key 0 with cardinality − 1 = 4 (u16 LE each), the container's offset 16 (u32 LE) and
   * five u16 LE values.
   */
  private static final String ZERO_TO_FIVE_WITHOUT_THREE =
      "0100000000000000"
          + "00000000"
          + "3a300000"
          + "01000000"
          + "0000"
          + "0400"
          + "10000000"
          + "0000"
          + "0100"
          + "0200"
          + "0400"
          + "0500";

  private static Coverage ids(EntityIdentity identity, long... ids) {
    Coverage coverage = new Coverage();
    for (long id : ids) {
      coverage.add(identity, id, id);
    }
    return coverage;
  }

  @Test
  void aTableWithoutEntitiesStoresThePortableTreemap() {
    Coverage coverage = ids(EntityIdentity.IMPLICIT, 0, 1, 2, 4, 5);
    byte[] bytes = CoverageFormat.encode(coverage, false);
    assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(ZERO_TO_FIVE_WITHOUT_THREE);
    assertThat(CoverageFormat.decode(bytes, false)).isEqualTo(coverage);
  }

  @Test
  void entityTablesStoreTstecov2WithIdentitiesInOrder() {
    Coverage coverage = ids(EntityIdentity.of("A"), 0, 1, 2, 4, 5);
    coverage.add(EntityIdentity.of(""), 7, 7);
    byte[] bytes = CoverageFormat.encode(coverage, true);
    String seven =
        "0100000000000000"
            + "00000000"
            + "3a300000"
            + "01000000"
            + "0000"
            + "0000"
            + "10000000"
            + "0700";
    String expected =
        HexFormat.of().formatHex("TSTECOV2".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            + "00000002"
            // The empty string orders first: one component, tag 1, length 0, then its bitmap.
            + "00000001"
            + "01"
            + "0000000000000000"
            + "000000000000001e"
            + seven
            + "00000001"
            + "01"
            + "0000000000000001"
            + "41"
            + "0000000000000026"
            + ZERO_TO_FIVE_WITHOUT_THREE;
    assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(expected);
    assertThat(CoverageFormat.decode(bytes, true)).isEqualTo(coverage);
  }

  @Test
  void integerComponentsAreTaggedAndBigEndian() {
    Coverage coverage = ids(EntityIdentity.of(7, -2L), 3);
    String hex = HexFormat.of().formatHex(CoverageFormat.encode(coverage, true));
    assertThat(hex.substring(24))
        .startsWith("00000002" + "02" + "00000007" + "03" + "fffffffffffffffe");
    assertThat(CoverageFormat.decode(CoverageFormat.encode(coverage, true), true))
        .isEqualTo(coverage);
  }

  @Test
  void unsignedComponentsAreTaggedFourAndOrderAboveSignedOnes() {
    java.math.BigInteger max = EntityIdentity.UNSIGNED_MAX;
    Coverage coverage = ids(EntityIdentity.of(max), 3);
    coverage.add(EntityIdentity.of(java.math.BigInteger.ONE), 1, 1);
    String hex = HexFormat.of().formatHex(CoverageFormat.encode(coverage, true));
    // Two identities, 1 before 2^64 − 1 (unsigned order), each one component with tag 4.
    assertThat(hex.substring(16, 24)).isEqualTo("00000002");
    assertThat(hex.substring(24)).startsWith("00000001" + "04" + "0000000000000001");
    assertThat(hex).contains("00000001" + "04" + "ffffffffffffffff");
    assertThat(CoverageFormat.decode(CoverageFormat.encode(coverage, true), true))
        .isEqualTo(coverage);
    assertThat(EntityIdentity.of(max).compareTo(EntityIdentity.of(Long.MAX_VALUE))).isPositive();
  }

  @Test
  void idsAboveTwoToTheSixtyThreeKeepUnsignedOrder() {
    Coverage coverage = new Coverage();
    coverage.add(EntityIdentity.IMPLICIT, IndexIntervals.SIGN_BIT - 1, IndexIntervals.SIGN_BIT + 1);
    coverage.add(EntityIdentity.IMPLICIT, -2L, -1L);
    var ids = coverage.ids(EntityIdentity.IMPLICIT);
    assertThat(ids.runs())
        .containsExactly(
            new IntervalIds.Run(IndexIntervals.SIGN_BIT - 1, IndexIntervals.SIGN_BIT + 1),
            new IntervalIds.Run(-2L, -1L));
    assertThat(ids.cardinality()).isEqualTo(5);
    assertThat(ids.contains(-1L)).isTrue();
    assertThat(CoverageFormat.decode(CoverageFormat.encode(coverage, false), false))
        .isEqualTo(coverage);
  }

  @Test
  void truncatedTrailingUnknownAndUnorderedBytesAreRefused() {
    byte[] good = CoverageFormat.encode(ids(EntityIdentity.of("A"), 1), true);
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 3);
    byte[] trailing = java.util.Arrays.copyOf(good, good.length + 1);
    byte[] unknownTag = good.clone();
    unknownTag[16] = 9;
    byte[] notCoverage = "NOTCOVER00000000".getBytes();
    for (byte[] bad : new byte[][] {truncated, trailing, unknownTag, notCoverage}) {
      assertThatThrownBy(() -> CoverageFormat.decode(bad, true))
          .isInstanceOf(IllegalArgumentException.class);
    }
    Coverage two = ids(EntityIdentity.of("A"), 1);
    two.add(EntityIdentity.of("B"), 1, 1);
    byte[] ordered = CoverageFormat.encode(two, true);
    String hex = HexFormat.of().formatHex(ordered);
    byte[] swapped =
        HexFormat.of()
            .parseHex(
                hex.replaceFirst("0141", "01ff")
                    .replaceFirst("0142", "0141")
                    .replaceFirst("01ff", "0142"));
    assertThatThrownBy(() -> CoverageFormat.decode(swapped, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("order");
  }

  @Test
  void overlapCountsSharedPairsAndNamesTheFirst() {
    Coverage committed = ids(EntityIdentity.of("A"), 1, 2, 3);
    committed.add(EntityIdentity.of("B"), 5, 5);
    Coverage appended = ids(EntityIdentity.of("A"), 3, 4);
    appended.add(EntityIdentity.of("B"), 5, 6);
    appended.add(EntityIdentity.of("C"), 1, 1);
    Coverage.Overlap overlap = appended.overlap(committed).orElseThrow();
    assertThat(overlap.pairs()).isEqualTo(2);
    assertThat(overlap.exampleIdentity()).isEqualTo(EntityIdentity.of("A"));
    assertThat(overlap.exampleId()).isEqualTo(3);
    assertThat(ids(EntityIdentity.of("C"), 9).overlap(committed)).isEmpty();
  }

  @Test
  void overlapFindsItsExampleBehindABucketThatSharesNothing() {
    long far = (1L << 40) + 5;
    Coverage committed = ids(EntityIdentity.IMPLICIT, 3, far);
    Coverage appended = ids(EntityIdentity.IMPLICIT, 4, far);
    Coverage.Overlap overlap = appended.overlap(committed).orElseThrow();
    assertThat(overlap.pairs()).isEqualTo(1);
    assertThat(overlap.exampleId()).isEqualTo(far);
  }
}

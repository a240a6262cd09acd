package dev.timelake.rollup;

/**
 * A part of a statement rollups cannot store or answer, with the reason: an aggregate they do not
 * know, a bucket whose grid cannot be proven. A rollup definition turns it into a validation error;
 * routing into a "not routed" line of the explanation.
 */
public final class UnsupportedPart extends RuntimeException {
  public UnsupportedPart(String reason) {
    super(reason, null, false, false);
  }
}

package dev.timelake.table;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses byte sizes such as {@code 128MB}, {@code 512KiB} or {@code 1048576} (binary units). */
public final class ByteSizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]?i?b?)");

  private ByteSizes() {}

  public static long parse(String text) {
    Matcher matcher = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!matcher.matches()) {
      throw new IllegalArgumentException("expected a size such as 128MB, 512KiB or 1048576");
    }
    String unit = matcher.group(2);
    int shift =
        unit.isEmpty()
            ? 0
            : switch (unit.charAt(0)) {
              case 'k' -> 10;
              case 'm' -> 20;
              case 'g' -> 30;
              case 't' -> 40;
              default -> 0;
            };
    try {
      long amount = Long.parseLong(matcher.group(1));
      if (amount > Long.MAX_VALUE >> shift) {
        throw new NumberFormatException("too large");
      }
      return amount << shift;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected a size such as 128MB, 512KiB or 1048576");
    }
  }
}

package dev.timelake.server;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * InfluxDB line protocol ({@code measurement[,tag=value…] field=value[,field=value…] [timestamp]})
 * parsed into points, with InfluxDB's escapes and field types.
 *
 * <p>The parser walks the body once, byte by byte, and decodes only the names and string values it
 * keeps; numbers are read straight from the bytes. A backslash always takes the byte after it along
 * (so {@code a\\ b} ends at the space, as in InfluxDB), but only the escapes a position defines
 * lose their backslash: {@code \,} and {@code \ } in the measurement, also {@code \=} in tag keys,
 * tag values and field keys, and {@code \"} and {@code \\} in string field values. A newline always
 * ends the line, also inside a string value (InfluxDB's documentation does not allow newlines in
 * values). Bytes that are not valid UTF-8 decode to U+FFFD. A timestamp is refused unless its µs
 * are a time Timelake can store ({@link #EARLIEST_MICROS} to {@link #LATEST_MICROS}).
 */
final class LineProtocol {
  /** Timestamp precision of a write request. */
  enum Precision {
    NANOSECONDS,
    MICROSECONDS,
    MILLISECONDS,
    SECONDS,
    MINUTES,
    HOURS;

    /**
     * The precision a write request names: v2's {@code ns}, {@code us}, {@code ms}, {@code s} and
     * v1's {@code n}, {@code u}, {@code ms}, {@code s}, {@code m}, {@code h}; nanoseconds when
     * {@code text} is null or empty.
     *
     * @throws IllegalArgumentException for any other spelling
     */
    static Precision parse(String text) {
      if (text == null || text.isEmpty()) {
        return NANOSECONDS;
      }
      return switch (text) {
        case "ns", "n" -> NANOSECONDS;
        case "us", "u" -> MICROSECONDS;
        case "ms" -> MILLISECONDS;
        case "s" -> SECONDS;
        case "m" -> MINUTES;
        case "h" -> HOURS;
        default ->
            throw new IllegalArgumentException(
                "Unknown precision '"
                    + text
                    + "' (expected ns, us, ms or s, or InfluxDB 1's n, u, ms, s, m or h)");
      };
    }

    /**
     * µs since the epoch of {@code value} in this precision. Nanoseconds floor, so that a negative
     * timestamp lands in the microsecond that contains it rather than the one after.
     *
     * @throws ArithmeticException when the µs do not fit in a long, or are outside {@link
     *     #EARLIEST_MICROS} to {@link #LATEST_MICROS}
     */
    long toMicros(long value) {
      long micros =
          switch (this) {
            case NANOSECONDS -> Math.floorDiv(value, 1_000L);
            case MICROSECONDS -> value;
            case MILLISECONDS -> Math.multiplyExact(value, 1_000L);
            case SECONDS -> Math.multiplyExact(value, 1_000_000L);
            case MINUTES -> Math.multiplyExact(value, 60_000_000L);
            case HOURS -> Math.multiplyExact(value, 3_600_000_000L);
          };
      if (micros < EARLIEST_MICROS || micros > LATEST_MICROS) {
        throw new ArithmeticException(micros + " µs is outside " + STORABLE_TIMES);
      }
      return micros;
    }
  }

  /**
   * The earliest time a TIMESTAMPTZ holds in DuckDB, the engine that writes Timelake's files:
   * 290309-12-22 (BC) 00:00:00 UTC in µs since the epoch. DuckDB's date arithmetic overflows on
   * anything earlier, so an append of such a time fails.
   */
  static final long EARLIEST_MICROS = -9_223_372_022_400_000_000L;

  /**
   * The latest time a TIMESTAMPTZ holds in DuckDB: 294247-01-10 04:00:54.775806 UTC in µs since the
   * epoch ({@code Long.MAX_VALUE} is DuckDB's {@code infinity}, which no timestamp may be).
   */
  static final long LATEST_MICROS = Long.MAX_VALUE - 1;

  /** The range of {@link #EARLIEST_MICROS} to {@link #LATEST_MICROS}, for messages. */
  static final String STORABLE_TIMES =
      "the times Timelake stores (290309-12-22 BC to 294247-01-10 AD)";

  /** The type of a field value, named after the column type it is stored in. */
  enum FieldType {
    DOUBLE,
    BIGINT,
    UBIGINT,
    VARCHAR,
    BOOLEAN
  }

  /**
   * A field value: {@link Double} for DOUBLE, {@link Long} for BIGINT, {@link BigInteger} (0 to
   * 2^64-1) for UBIGINT, {@link String} for VARCHAR and {@link Boolean} for BOOLEAN.
   */
  record Field(String name, FieldType type, Object value) {}

  /**
   * One line of the body: its 1-based line number (blank and comment lines count), the measurement,
   * the tags in the order given, the fields in the order given and the timestamp in µs (the default
   * for lines without one). The tag map belongs to the caller; the field list is immutable.
   */
  record Point(
      int line, String measurement, Map<String, String> tags, List<Field> fields, long micros) {}

  /**
   * A malformed line. The message starts with {@code line N:}, quotes the offending text and ends
   * with the line itself (cut to 200 characters).
   */
  static final class ParseException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final String field;

    ParseException(int line, String field, String message) {
      super(message);
      this.line = line;
      this.field = field;
    }

    /** The 1-based number of the malformed line. */
    int line() {
      return line;
    }

    /** The field whose key or value is malformed, when the error is about one. */
    Optional<String> field() {
      return Optional.ofNullable(field);
    }
  }

  private static final int MAX_QUOTED = 200;
  private static final int WIDE = 16;

  // One table lookup per byte tells the scanning loops whether a byte needs a closer look.
  private static final byte COMMA = 1;
  private static final byte SPACE = 2;
  private static final byte EQUALS = 4;
  private static final byte NEWLINE = 8;
  private static final byte RETURN = 16;
  private static final byte BACKSLASH = 32;
  private static final byte QUOTE = 64;
  private static final int MEASUREMENT_END = COMMA | SPACE | NEWLINE | RETURN | BACKSLASH;
  // Keys and tag values also stop at '=' so that a stray one is reported, not swallowed.
  private static final int KEY_END = MEASUREMENT_END | EQUALS;
  private static final int STRING_END = QUOTE | BACKSLASH | NEWLINE;
  private static final byte[] CLASSES = new byte[256];

  static {
    CLASSES[','] = COMMA;
    CLASSES[' '] = SPACE;
    CLASSES['='] = EQUALS;
    CLASSES['\n'] = NEWLINE;
    CLASSES['\r'] = RETURN;
    CLASSES['\\'] = BACKSLASH;
    CLASSES['"'] = QUOTE;
  }

  // Measurements, tag keys, tag values and field keys repeat from line to line; handing out the
  // same String saves the decoding and keeps its hash, which the tag map and every map downstream
  // need. Long names are rarely repeated, so they are not worth a slot. The cache grows with the
  // body, so that a one-line request does not pay for a table sized for thousands of series.
  private static final int MIN_CACHE_SLOTS = 64;
  private static final int MAX_CACHE_SLOTS = 8192;
  private static final int MAX_CACHED = 64;

  // Exact powers of ten: a mantissa below 2^53 times or divided by one of them rounds once, so
  // the result is the correctly rounded double (Clinger's fast path) without Double.parseDouble.
  private static final double[] POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22
  };
  private static final int MAX_FAST_DIGITS = 15;
  private static final BigInteger TWO_TO_THE_64 = BigInteger.ONE.shiftLeft(64);
  private static final String EXPECTED_VALUES =
      "(expected a number, 12i, 12u, \"text\", true or false)";

  private final byte[] body;
  private final int length;
  private final Precision precision;
  private final long defaultMicros;
  private final byte[][] cachedBytes;
  private final String[] cachedNames;
  private byte[] scratch = new byte[64];
  // Tags and fields of the current line, gathered before the map and list are built at their
  // final size.
  private String[] tagKeys = new String[8];
  private String[] tagValues = new String[8];
  private String[] fieldKeys = new String[8];
  private Field[] fieldValues = new Field[8];
  private Set<String> wideKeys;
  private int pos;
  private int line;
  private int lineStart;

  private LineProtocol(byte[] body, Precision precision, long defaultMicros) {
    this.body = body;
    this.length = body.length;
    this.precision = precision;
    this.defaultMicros = defaultMicros;
    int slots = Integer.highestOneBit(Math.max(MIN_CACHE_SLOTS, body.length / 32));
    slots = Math.min(MAX_CACHE_SLOTS, slots);
    this.cachedBytes = new byte[slots][];
    this.cachedNames = new String[slots];
  }

  /**
   * The points of a request body in UTF-8, one per line. Lines end with {@code \n} or {@code \r\n};
   * blank lines and comments (lines starting with {@code #}) are skipped. Timestamps are read in
   * the given precision, and lines without one get {@code defaultMicros}.
   *
   * @throws ParseException for the first malformed line
   */
  static List<Point> parse(byte[] body, Precision precision, long defaultMicros) {
    requireNonNull(body, "body is null");
    requireNonNull(precision, "precision is null");
    return new LineProtocol(body, precision, defaultMicros).points();
  }

  private List<Point> points() {
    List<Point> points = new ArrayList<>();
    while (pos < length) {
      line++;
      lineStart = pos;
      skipBlanks();
      if (isLineEnd(pos) || body[pos] == '#') {
        skipLine();
      } else {
        points.add(point());
        endLine();
      }
    }
    return points;
  }

  private Point point() {
    int keyStart = pos;
    String measurement = name(MEASUREMENT_END, false);
    if (measurement.isEmpty()) {
      throw error(null, "empty measurement name before ','");
    }
    int tagCount = 0;
    while (at(',')) {
      int tagStart = ++pos;
      String key = name(KEY_END, true);
      if (!at('=')) {
        throw key.isEmpty()
            ? error(null, "empty tag key after ','")
            : error(null, "missing '=' after tag key " + quote(key));
      }
      if (key.isEmpty()) {
        throw error(null, "empty tag key in " + quote(text(tagStart, tokenEnd(tagStart))));
      }
      pos++;
      String value = name(KEY_END, true);
      if (at('=')) {
        throw error(
            null,
            "unescaped '=' in the value of tag "
                + quote(key)
                + ": "
                + quote(text(tagStart, tokenEnd(tagStart))));
      }
      if (value.isEmpty()) {
        throw error(null, "empty value for tag " + quote(key));
      }
      if (seen(key, tagKeys, tagCount)) {
        throw error(null, "duplicate tag key " + quote(key));
      }
      if (tagCount == tagKeys.length) {
        tagKeys = Arrays.copyOf(tagKeys, 2 * tagCount);
        tagValues = Arrays.copyOf(tagValues, 2 * tagCount);
      }
      tagKeys[tagCount] = key;
      tagValues[tagCount++] = value;
    }
    if (!at(' ') || isLineEnd(skipBlanksFrom(pos))) {
      throw error(null, "no fields after " + quote(text(keyStart, pos)));
    }
    skipBlanks();
    List<Field> fields = fields();
    skipBlanks();
    // Sized so that the map never rehashes: points are kept by the million, and a default-sized
    // map would spend three quarters of its table on nothing.
    Map<String, String> tags = new LinkedHashMap<>((4 * tagCount + 2) / 3);
    for (int i = 0; i < tagCount; i++) {
      tags.put(tagKeys[i], tagValues[i]);
    }
    long micros = defaultMicros;
    if (!isLineEnd(pos)) {
      micros = timestamp();
      skipBlanks();
      if (!isLineEnd(pos)) {
        throw error(null, "unexpected text after the timestamp: " + quote(text(pos, lineEnd())));
      }
    }
    return new Point(line, measurement, tags, fields, micros);
  }

  private List<Field> fields() {
    int count = 0;
    while (true) {
      int fieldStart = pos;
      String key = name(KEY_END, true);
      if (!at('=')) {
        if (key.isEmpty()) {
          throw error(null, "empty field key after ','");
        }
        throw count == 0
            ? error(
                null, "expected a field key=value, found " + quote(text(fieldStart, tokenEnd(pos))))
            : error(key, "missing '=' after field key " + quote(key));
      }
      if (key.isEmpty()) {
        throw error(null, "empty field key in " + quote(text(fieldStart, tokenEnd(pos))));
      }
      pos++;
      Field field = value(key);
      if (seen(key, fieldKeys, count)) {
        throw error(key, "duplicate field key " + quote(key));
      }
      if (count == fieldKeys.length) {
        fieldKeys = Arrays.copyOf(fieldKeys, 2 * count);
        fieldValues = Arrays.copyOf(fieldValues, 2 * count);
      }
      fieldKeys[count] = key;
      fieldValues[count++] = field;
      if (!at(',')) {
        // List.of keeps one or two fields, the common case, without an array.
        return switch (count) {
          case 1 -> List.of(fieldValues[0]);
          case 2 -> List.of(fieldValues[0], fieldValues[1]);
          default -> List.of(Arrays.copyOf(fieldValues, count));
        };
      }
      pos++;
    }
  }

  /**
   * Whether {@code key} is among the first {@code count} of {@code keys}. Lines have a handful of
   * tags and fields, where a scan beats hashing; wide lines switch to a set so that thousands of
   * keys are not quadratic.
   */
  private boolean seen(String key, String[] keys, int count) {
    if (count < WIDE) {
      for (int i = 0; i < count; i++) {
        if (keys[i].equals(key)) {
          return true;
        }
      }
      return false;
    }
    if (count == WIDE) {
      wideKeys = new HashSet<>(Arrays.asList(keys).subList(0, count));
    }
    return !wideKeys.add(key);
  }

  /**
   * Reads a name up to the first unescaped delimiter of {@code ends} (a {@code \r} only where it
   * ends the line) and leaves {@code pos} on it: the caller knows which delimiters may follow.
   */
  private String name(int ends, boolean equalsEscapes) {
    byte[] b = body;
    int n = length;
    int start = pos;
    int i = start;
    int hash = 0;
    boolean escaped = false;
    for (; i < n; i++) {
      byte c = b[i];
      if ((CLASSES[c & 0xff] & ends) != 0) {
        if (c == '\\') {
          if (i + 1 < n && !isLineEnd(i + 1)) {
            escaped = true;
            i++;
            continue;
          }
        } else if (c != '\r' || isLineEnd(i)) {
          break;
        }
      }
      hash = 31 * hash + c;
    }
    pos = i;
    if (escaped) {
      return unescapeName(start, i, equalsEscapes);
    }
    return cached(start, i, hash);
  }

  private String cached(int start, int end, int hash) {
    int size = end - start;
    if (size == 0) {
      return "";
    }
    if (size > MAX_CACHED) {
      return new String(body, start, size, UTF_8);
    }
    int slot = (hash ^ (hash >>> 16)) & (cachedNames.length - 1);
    byte[] bytes = cachedBytes[slot];
    if (bytes != null && bytes.length == size && sameBytes(bytes, start)) {
      return cachedNames[slot];
    }
    String name = new String(body, start, size, UTF_8);
    cachedBytes[slot] = Arrays.copyOfRange(body, start, end);
    cachedNames[slot] = name;
    return name;
  }

  // A plain loop: for names this short, Arrays.equals spends longer getting to its vectorized
  // comparison than the comparison takes.
  private boolean sameBytes(byte[] bytes, int start) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] != body[start + i]) {
        return false;
      }
    }
    return true;
  }

  private String unescapeName(int start, int end, boolean equalsEscapes) {
    byte[] out = scratch(end - start);
    int size = 0;
    for (int i = start; i < end; i++) {
      byte c = body[i];
      if (c == '\\' && i + 1 < end) {
        byte next = body[++i];
        if (next != ',' && next != ' ' && (next != '=' || !equalsEscapes)) {
          out[size++] = c;
        }
        c = next;
      }
      out[size++] = c;
    }
    return new String(out, 0, size, UTF_8);
  }

  private Field value(String key) {
    if (isValueEnd(pos)) {
      throw error(key, "missing value for field " + quote(key));
    }
    return switch (body[pos]) {
      case '"' -> string(key);
      case 't', 'T', 'f', 'F' -> bool(key);
      default -> number(key);
    };
  }

  private Field string(String key) {
    byte[] b = body;
    int n = length;
    int start = pos;
    int i = start + 1;
    boolean escaped = false;
    while (true) {
      if (i >= n || b[i] == '\n') {
        int end = i > start + 1 && b[i - 1] == '\r' ? i - 1 : i;
        throw error(
            key,
            "unterminated string value for field " + quote(key) + ": " + quote(text(start, end)));
      }
      byte c = b[i];
      if ((CLASSES[c & 0xff] & STRING_END) != 0) {
        if (c == '"') {
          break;
        }
        if (c == '\\') {
          escaped = true;
          if (i + 1 < n && b[i + 1] != '\n') {
            i++;
          }
        }
      }
      i++;
    }
    String value =
        escaped ? unescapeString(start + 1, i) : new String(b, start + 1, i - start - 1, UTF_8);
    pos = i + 1;
    if (!isValueEnd(pos)) {
      throw invalidValue(key, start, pos);
    }
    return new Field(key, FieldType.VARCHAR, value);
  }

  private String unescapeString(int start, int end) {
    byte[] out = scratch(end - start);
    int size = 0;
    for (int i = start; i < end; i++) {
      byte c = body[i];
      if (c == '\\' && i + 1 < end) {
        byte next = body[++i];
        if (next != '"' && next != '\\') {
          out[size++] = c;
        }
        c = next;
      }
      out[size++] = c;
    }
    return new String(out, 0, size, UTF_8);
  }

  private Field bool(String key) {
    int start = pos;
    int end = start;
    while (!isValueEnd(end)) {
      end++;
    }
    Boolean value =
        switch (end - start) {
          case 1 -> Boolean.valueOf(body[start] == 't' || body[start] == 'T');
          case 4 -> matches(start, "true", "True", "TRUE") ? Boolean.TRUE : null;
          case 5 -> matches(start, "false", "False", "FALSE") ? Boolean.FALSE : null;
          default -> null;
        };
    if (value == null) {
      throw invalidValue(key, start, end);
    }
    pos = end;
    return new Field(key, FieldType.BOOLEAN, value);
  }

  private boolean matches(int start, String lower, String capitalized, String upper) {
    return matches(start, lower) || matches(start, capitalized) || matches(start, upper);
  }

  private boolean matches(int start, String spelling) {
    for (int i = 0; i < spelling.length(); i++) {
      if (body[start + i] != spelling.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private Field number(String key) {
    byte[] b = body;
    int n = length;
    int start = pos;
    int i = start;
    boolean negative = b[i] == '-';
    if (negative) {
      i++;
    }
    // Accumulated without overflow checks; see exact() for integers, and doubles with more than
    // MAX_FAST_DIGITS digits are read again by the JDK.
    long mantissa = 0;
    int integerStart = i;
    while (i < n && isDigit(b[i])) {
      mantissa = mantissa * 10 + (b[i++] - '0');
    }
    int integerDigits = i - integerStart;
    if (integerDigits > 0 && i < n && (b[i] == 'i' || b[i] == 'u') && isValueEnd(i + 1)) {
      pos = i + 1;
      return b[i] == 'i'
          ? bigint(key, start, i, negative, integerDigits, mantissa)
          : ubigint(key, start, i, negative, integerDigits, mantissa);
    }
    int fractionDigits = 0;
    if (i < n && b[i] == '.') {
      int fractionStart = ++i;
      while (i < n && isDigit(b[i])) {
        mantissa = mantissa * 10 + (b[i++] - '0');
      }
      fractionDigits = i - fractionStart;
    }
    if (integerDigits + fractionDigits == 0) {
      throw invalidValue(key, start, i);
    }
    int exponent = 0;
    if (i < n && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      boolean negativeExponent = i < n && b[i] == '-';
      if (i < n && (b[i] == '-' || b[i] == '+')) {
        i++;
      }
      int exponentStart = i;
      while (i < n && isDigit(b[i])) {
        // Saturates far beyond any double's range so that a long exponent cannot wrap around.
        exponent = Math.min(exponent * 10 + (b[i++] - '0'), 100_000);
      }
      if (i == exponentStart) {
        throw invalidValue(key, start, i);
      }
      if (negativeExponent) {
        exponent = -exponent;
      }
    }
    if (!isValueEnd(i)) {
      throw invalidValue(key, start, i);
    }
    pos = i;
    int scale = exponent - fractionDigits;
    double value;
    if (integerDigits + fractionDigits <= MAX_FAST_DIGITS && scale >= -22 && scale <= 22) {
      value = scale >= 0 ? mantissa * POWERS_OF_TEN[scale] : mantissa / POWERS_OF_TEN[-scale];
      if (negative) {
        value = -value;
      }
    } else {
      value = Double.parseDouble(new String(b, start, i - start, ISO_8859_1));
      if (Double.isInfinite(value)) {
        throw outOfRange(key, "float", start, i, "");
      }
    }
    return new Field(key, FieldType.DOUBLE, value);
  }

  private Field bigint(
      String key, int start, int suffix, boolean negative, int digits, long mantissa) {
    long value;
    try {
      value = exact(start, suffix, negative, digits, mantissa);
    } catch (NumberFormatException e) {
      throw outOfRange(
          key, "integer", start, suffix + 1, " (-9223372036854775808i to 9223372036854775807i)");
    }
    return new Field(key, FieldType.BIGINT, value);
  }

  private Field ubigint(
      String key, int start, int suffix, boolean negative, int digits, long mantissa) {
    BigInteger value;
    if (negative) {
      value = null;
    } else if (digits <= 18) {
      value = BigInteger.valueOf(mantissa);
    } else if (digits == 19) {
      value = mantissa >= 0 ? BigInteger.valueOf(mantissa) : unsigned(mantissa);
    } else {
      try {
        long bits = Long.parseUnsignedLong(new String(body, start, suffix - start, ISO_8859_1));
        value = bits >= 0 ? BigInteger.valueOf(bits) : unsigned(bits);
      } catch (NumberFormatException e) {
        value = null;
      }
    }
    if (value == null) {
      throw outOfRange(
          key, "unsigned integer", start, suffix + 1, " (0u to 18446744073709551615u)");
    }
    return new Field(key, FieldType.UBIGINT, value);
  }

  /** The error for a number of field {@code key} at [start, end) that its type cannot hold. */
  private ParseException outOfRange(String key, String kind, int start, int end, String range) {
    return error(
        key,
        kind
            + " value "
            + quote(text(start, end))
            + " for field "
            + quote(key)
            + " is out of range"
            + range);
  }

  private static BigInteger unsigned(long bits) {
    return BigInteger.valueOf(bits).add(TWO_TO_THE_64);
  }

  /**
   * The signed value of {@code digits} digits whose unchecked sum is {@code mantissa}. Up to 19
   * digits, that sum is exact as an unsigned long (10^19 < 2^64), so only the sign bit needs a
   * look; 19 digits are the common case, as nanosecond timestamps have them.
   *
   * @throws NumberFormatException when the value does not fit in a long
   */
  private long exact(int start, int end, boolean negative, int digits, long mantissa) {
    if (digits <= 18) {
      return negative ? -mantissa : mantissa;
    }
    if (digits == 19) {
      if (mantissa >= 0) {
        return negative ? -mantissa : mantissa;
      }
      if (negative && mantissa == Long.MIN_VALUE) {
        return Long.MIN_VALUE;
      }
      throw new NumberFormatException();
    }
    // Only leading zeros make more digits fit.
    return Long.parseLong(new String(body, start, end - start, ISO_8859_1));
  }

  private long timestamp() {
    byte[] b = body;
    int n = length;
    int start = pos;
    int i = start;
    boolean negative = b[i] == '-';
    if (negative) {
      i++;
    }
    int digitStart = i;
    long value = 0;
    while (i < n && isDigit(b[i])) {
      value = value * 10 + (b[i++] - '0');
    }
    int digits = i - digitStart;
    if (digits == 0 || !isBlankOrLineEnd(i)) {
      throw error(
          null,
          "invalid timestamp " + quote(text(start, blankEnd(start))) + " (expected an integer)");
    }
    pos = i;
    try {
      value = exact(start, i, negative, digits, value);
    } catch (NumberFormatException e) {
      throw error(null, "timestamp " + quote(text(start, i)) + " is out of range");
    }
    try {
      return precision.toMicros(value);
    } catch (ArithmeticException e) {
      throw error(
          null,
          "timestamp "
              + quote(text(start, i))
              + " in "
              + precision.name().toLowerCase(Locale.ROOT)
              + " is out of range: it is not within "
              + STORABLE_TIMES);
    }
  }

  private ParseException invalidValue(String key, int start, int from) {
    int end = from;
    while (!isValueEnd(end)) {
      end++;
    }
    return error(
        key,
        "invalid field value "
            + quote(text(start, end))
            + " for field "
            + quote(key)
            + " "
            + EXPECTED_VALUES);
  }

  private ParseException error(String field, String detail) {
    String message = "line " + line + ": " + detail + ": " + cut(text(lineStart, lineEnd()));
    return new ParseException(line, field, message);
  }

  private static String quote(String text) {
    return "'" + cut(text) + "'";
  }

  private static String cut(String text) {
    if (text.length() <= MAX_QUOTED) {
      return text;
    }
    int end = MAX_QUOTED - 3;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end) + "...";
  }

  private String text(int start, int end) {
    return new String(body, start, end - start, UTF_8);
  }

  private byte[] scratch(int size) {
    if (scratch.length < size) {
      scratch = new byte[Math.max(size, 2 * scratch.length)];
    }
    return scratch;
  }

  private boolean at(char c) {
    return pos < length && body[pos] == c;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }

  /** Whether the line ends at {@code i}: the body's end, {@code \n} or {@code \r\n}. */
  private boolean isLineEnd(int i) {
    if (i >= length) {
      return true;
    }
    byte c = body[i];
    return c == '\n' || (c == '\r' && (i + 1 == length || body[i + 1] == '\n'));
  }

  private boolean isBlankOrLineEnd(int i) {
    return isLineEnd(i) || body[i] == ' ' || body[i] == '\t';
  }

  private boolean isValueEnd(int i) {
    return isBlankOrLineEnd(i) || body[i] == ',';
  }

  private int skipBlanksFrom(int i) {
    while (i < length && (body[i] == ' ' || body[i] == '\t')) {
      i++;
    }
    return i;
  }

  private void skipBlanks() {
    pos = skipBlanksFrom(pos);
  }

  private int blankEnd(int i) {
    while (!isBlankOrLineEnd(i)) {
      i++;
    }
    return i;
  }

  /** Where the key-part token at {@code i} ends: at an unescaped ',' or ' ', or the line end. */
  private int tokenEnd(int i) {
    while (!isLineEnd(i) && body[i] != ',' && body[i] != ' ') {
      i += body[i] == '\\' && !isLineEnd(i + 1) ? 2 : 1;
    }
    return i;
  }

  private int lineEnd() {
    int i = lineStart;
    while (!isLineEnd(i)) {
      i++;
    }
    return i;
  }

  private void endLine() {
    if (pos < length && body[pos] == '\r') {
      pos++;
    }
    if (pos < length && body[pos] == '\n') {
      pos++;
    }
  }

  private void skipLine() {
    while (pos < length && body[pos] != '\n') {
      pos++;
    }
    pos++;
  }
}

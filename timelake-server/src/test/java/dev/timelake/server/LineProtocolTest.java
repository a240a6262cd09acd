package dev.timelake.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.timelake.server.LineProtocol.Field;
import dev.timelake.server.LineProtocol.FieldType;
import dev.timelake.server.LineProtocol.ParseException;
import dev.timelake.server.LineProtocol.Point;
import dev.timelake.server.LineProtocol.Precision;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Line protocol as InfluxDB writes it: field types, escapes, precisions, line handling, and an
 * error naming the line and the offending text for every kind of malformed line.
 */
class LineProtocolTest {
  private static final long DEFAULT = 42L;

  private static List<Point> parse(String body) {
    return parse(body, Precision.NANOSECONDS);
  }

  private static List<Point> parse(String body, Precision precision) {
    return LineProtocol.parse(body.getBytes(UTF_8), precision, DEFAULT);
  }

  private static Point point(String line) {
    List<Point> points = parse(line);
    assertEquals(1, points.size(), () -> "points of " + line);
    return points.get(0);
  }

  private static Object value(String fieldValue) {
    Field field = point("m v=" + fieldValue).fields().get(0);
    return field.value();
  }

  private static Field field(String fieldValue) {
    return point("m v=" + fieldValue).fields().get(0);
  }

  private static ParseException error(String body) {
    return error(body, Precision.NANOSECONDS);
  }

  private static ParseException error(String body, Precision precision) {
    return assertThrows(ParseException.class, () -> parse(body, precision), body);
  }

  /** Asserts the line number, that the message starts with it and contains each fragment. */
  private static ParseException assertError(String body, int line, String... fragments) {
    ParseException e = error(body);
    assertEquals(line, e.line(), e.getMessage());
    assertTrue(e.getMessage().startsWith("line " + line + ": "), e.getMessage());
    for (String fragment : fragments) {
      assertTrue(e.getMessage().contains(fragment), () -> e.getMessage() + " lacks " + fragment);
    }
    return e;
  }

  @Test
  void aTypicalLineHasMeasurementTagsFieldsAndTimestamp() {
    Point p =
        point("readings,site=s1,device=d42,tag=t7 value=21.5,quality=192i 1767225600000000000");

    assertEquals(1, p.line());
    assertEquals("readings", p.measurement());
    assertEquals(Map.of("site", "s1", "device", "d42", "tag", "t7"), p.tags());
    assertEquals(
        List.of(
            new Field("value", FieldType.DOUBLE, 21.5),
            new Field("quality", FieldType.BIGINT, 192L)),
        p.fields());
    assertEquals(1767225600000000L, p.micros());
  }

  @Test
  void tagsAndFieldsKeepTheirOrder() {
    Point p = point("m,z=1,a=2,m=3 z=1,a=2,m=3");

    assertEquals(List.of("z", "a", "m"), List.copyOf(p.tags().keySet()));
    assertEquals(List.of("z", "a", "m"), p.fields().stream().map(Field::name).toList());
  }

  @Test
  void aLineWithoutTagsHasAnEmptyTagMap() {
    Point p = point("m v=1");

    assertEquals("m", p.measurement());
    assertEquals(Map.of(), p.tags());
  }

  @Test
  void numbersWithoutSuffixAreDoubles() {
    assertEquals(new Field("v", FieldType.DOUBLE, 1.0), field("1"));
    assertEquals(-1.5, value("-1.5"));
    assertEquals(1000.0, value("1e3"));
    assertEquals(1000.0, value("1E+3"));
    assertEquals(0.001, value("1e-3"));
    assertEquals(1.0, value("1."));
    assertEquals(0.5, value(".5"));
    assertEquals(-0.25, value("-.25"));
    assertEquals(-1.234456e+78, value("-1.234456e+78"));
    assertEquals(Double.doubleToLongBits(-0.0), Double.doubleToLongBits((Double) value("-0.0")));
    assertEquals(0.0, value("1e-400"));
  }

  @Test
  void doublesRoundLikeTheJdk() {
    String[] texts = {
      "0.1",
      "0.3",
      "21.5",
      "3.141592653589793",
      "2.718281828459045",
      "123456789012345",
      "1234567890123456789",
      "0.000000000000000001",
      "1.7976931348623157e308",
      "4.9e-324",
      "9007199254740993",
      "123.456e-7",
      "99999999999999.99",
      "0.1e22",
      "1e23",
      "8.41e21",
      "5e-324",
      "1.0000000000000002",
      "12345.678901234567890"
    };
    for (String text : texts) {
      assertEquals(Double.parseDouble(text), value(text), text);
      assertEquals(-Double.parseDouble(text), value("-" + text), "-" + text);
    }
  }

  @Test
  void integersWithISuffixAreBigints() {
    assertEquals(new Field("v", FieldType.BIGINT, 12L), field("12i"));
    assertEquals(-12L, value("-12i"));
    assertEquals(0L, value("0i"));
    assertEquals(Long.MAX_VALUE, value("9223372036854775807i"));
    assertEquals(Long.MIN_VALUE, value("-9223372036854775808i"));
    assertEquals(7L, value("0000000000000000000007i"));
  }

  @Test
  void integersWithUSuffixAreUnsignedBigints() {
    assertEquals(new Field("v", FieldType.UBIGINT, BigInteger.valueOf(12)), field("12u"));
    assertEquals(BigInteger.ZERO, value("0u"));
    assertEquals(BigInteger.valueOf(Long.MAX_VALUE), value("9223372036854775807u"));
    assertEquals(new BigInteger("9223372036854775808"), value("9223372036854775808u"));
    assertEquals(new BigInteger("18446744073709551615"), value("18446744073709551615u"));
  }

  @Test
  void quotedValuesAreStrings() {
    assertEquals(new Field("v", FieldType.VARCHAR, "hello world"), field("\"hello world\""));
    assertEquals("", value("\"\""));
    assertEquals("a,b=c d", value("\"a,b=c d\""));
    assertEquals("true", value("\"true\""));
    assertEquals("12i", value("\"12i\""));
  }

  @Test
  void everyBooleanSpellingIsABoolean() {
    for (String t : List.of("t", "T", "true", "True", "TRUE")) {
      assertEquals(new Field("v", FieldType.BOOLEAN, true), field(t), t);
    }
    for (String f : List.of("f", "F", "false", "False", "FALSE")) {
      assertEquals(new Field("v", FieldType.BOOLEAN, false), field(f), f);
    }
  }

  @Test
  void oneLineCanMixEveryFieldType() {
    Point p = point("m d=1.5,i=-3i,u=3u,s=\"x\",b=t 1");

    assertEquals(
        List.of(
            FieldType.DOUBLE,
            FieldType.BIGINT,
            FieldType.UBIGINT,
            FieldType.VARCHAR,
            FieldType.BOOLEAN),
        p.fields().stream().map(Field::type).toList());
  }

  @Test
  void escapedCommasAndSpacesStayInTheMeasurement() {
    assertEquals("my measurement,x", point("my\\ measurement\\,x v=1").measurement());
  }

  @Test
  void otherBackslashesAndEqualsSignsStayInTheMeasurement() {
    assertEquals("a=b\\=c\\d", point("a=b\\=c\\d v=1").measurement());
  }

  @Test
  void escapedCommasEqualsSignsAndSpacesStayInTagKeysAndValues() {
    Point p = point("m,tag\\ key\\,1\\=x=tag\\ value\\,1\\=y v=1");

    assertEquals(Map.of("tag key,1=x", "tag value,1=y"), p.tags());
  }

  @Test
  void escapedCommasEqualsSignsAndSpacesStayInFieldKeys() {
    Point p = point("m field\\ key\\,1\\=x=1");

    assertEquals("field key,1=x", p.fields().get(0).name());
  }

  @Test
  void escapedQuotesAndBackslashesStayInStringValues() {
    assertEquals("say \"hi\"", value("\"say \\\"hi\\\"\""));
    assertEquals("C:\\dir\\", value("\"C:\\\\dir\\\\\""));
    // Only \" and \\ are escapes in a string; any other backslash is kept.
    assertEquals("a\\nb", value("\"a\\nb\""));
  }

  @Test
  void aBackslashBeforeAnyOtherByteStaysInNames() {
    Point p = point("m,k\\x=v\\y f\\z=1");

    assertEquals(Map.of("k\\x", "v\\y"), p.tags());
    assertEquals("f\\z", p.fields().get(0).name());
  }

  @Test
  void aDoubleBackslashDoesNotEscapeTheFollowingSpace() {
    Point p = point("m,k=a\\\\ v=1");

    assertEquals(Map.of("k", "a\\\\"), p.tags());
    assertEquals("v", p.fields().get(0).name());
  }

  @Test
  void quotesInNamesArePartOfTheName() {
    Point p = point("\"m\",\"k\"=\"v\" \"f\"=1");

    assertEquals("\"m\"", p.measurement());
    assertEquals(Map.of("\"k\"", "\"v\""), p.tags());
    assertEquals("\"f\"", p.fields().get(0).name());
  }

  @Test
  void namesAndStringsAreUtf8() {
    Point p = point("température,lieu=Zürich🍭 wert=\"Launch 🚀\"");

    assertEquals("température", p.measurement());
    assertEquals(Map.of("lieu", "Zürich🍭"), p.tags());
    assertEquals("Launch 🚀", p.fields().get(0).value());
  }

  @Test
  void repeatedNamesAcrossLinesAreReadCorrectly() {
    List<Point> points = parse("m,a=x v=1\nm,a=y v=2\nn,a=x w=3\nm,b=x v=4\n");

    assertEquals(List.of("m", "m", "n", "m"), points.stream().map(Point::measurement).toList());
    assertEquals(Map.of("a", "x"), points.get(0).tags());
    assertEquals(Map.of("a", "y"), points.get(1).tags());
    assertEquals(Map.of("a", "x"), points.get(2).tags());
    assertEquals(Map.of("b", "x"), points.get(3).tags());
  }

  @Test
  void namesBeyondTheCacheAreReadCorrectly() {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      body.append("m").append(i % 3).append(",device=d").append(i).append(",site=s").append(i % 7);
      body.append(" f").append(i % 5).append("=1i ").append(i).append("000\n");
    }

    List<Point> points = parse(body.toString());

    assertEquals(20_000, points.size());
    for (int i = 0; i < points.size(); i++) {
      Point p = points.get(i);
      assertEquals("m" + i % 3, p.measurement());
      assertEquals(Map.of("device", "d" + i, "site", "s" + i % 7), p.tags());
      assertEquals("f" + i % 5, p.fields().get(0).name());
      assertEquals(i, p.micros());
      assertEquals(i + 1, p.line());
    }
  }

  @Test
  void manyTagsKeepTheirOrder() {
    StringBuilder line = new StringBuilder("m");
    for (int i = 0; i < 40; i++) {
      line.append(",t").append(i).append("=v").append(i);
    }

    Point p = point(line + " v=1");

    assertEquals(40, p.tags().size());
    int i = 0;
    for (Map.Entry<String, String> tag : p.tags().entrySet()) {
      assertEquals("t" + i, tag.getKey());
      assertEquals("v" + i++, tag.getValue());
    }
    assertError(line + ",t2=x v=1", 1, "duplicate tag key 't2'");
    assertError(line + ",t39=x v=1", 1, "duplicate tag key 't39'");
  }

  @Test
  void nanosecondsFloorToMicroseconds() {
    assertEquals(1L, point("m v=1 1999").micros());
    assertEquals(0L, point("m v=1 999").micros());
    assertEquals(-1L, point("m v=1 -1").micros());
    assertEquals(-1L, point("m v=1 -1000").micros());
    assertEquals(-2L, point("m v=1 -1001").micros());
    assertEquals(Long.MAX_VALUE / 1000, point("m v=1 9223372036854775807").micros());
    assertEquals(
        Math.floorDiv(Long.MIN_VALUE, 1000L), point("m v=1 -9223372036854775808").micros());
    assertEquals(5L, point("m v=1 0000000000000000000005000").micros());
  }

  @Test
  void coarserPrecisionsMultiplyToMicroseconds() {
    assertEquals(-5L, parse("m v=1 -5", Precision.MICROSECONDS).get(0).micros());
    assertEquals(5_000L, parse("m v=1 5", Precision.MILLISECONDS).get(0).micros());
    assertEquals(
        1_767_225_600_000_000L, parse("m v=1 1767225600", Precision.SECONDS).get(0).micros());
    assertEquals(-3_000_000L, parse("m v=1 -3", Precision.SECONDS).get(0).micros());
    assertEquals(120_000_000L, parse("m v=1 2", Precision.MINUTES).get(0).micros());
    assertEquals(7_200_000_000L, parse("m v=1 2", Precision.HOURS).get(0).micros());
  }

  @Test
  void precisionToMicrosConvertsEachUnit() {
    assertEquals(-2L, Precision.NANOSECONDS.toMicros(-1001));
    assertEquals(7L, Precision.MICROSECONDS.toMicros(7));
    assertEquals(7_000L, Precision.MILLISECONDS.toMicros(7));
    assertEquals(7_000_000L, Precision.SECONDS.toMicros(7));
    assertEquals(420_000_000L, Precision.MINUTES.toMicros(7));
    assertEquals(25_200_000_000L, Precision.HOURS.toMicros(7));
    assertThrows(ArithmeticException.class, () -> Precision.HOURS.toMicros(Long.MAX_VALUE / 1000));
    ArithmeticException infinity =
        assertThrows(
            ArithmeticException.class, () -> Precision.MICROSECONDS.toMicros(Long.MAX_VALUE));
    assertTrue(infinity.getMessage().contains("290309-12-22 BC"), infinity.getMessage());
    assertEquals(
        Math.floorDiv(Long.MIN_VALUE, 1_000L), Precision.NANOSECONDS.toMicros(Long.MIN_VALUE));
  }

  @Test
  void precisionAcceptsV1AndV2Spellings() {
    assertEquals(Precision.NANOSECONDS, Precision.parse(null));
    assertEquals(Precision.NANOSECONDS, Precision.parse(""));
    assertEquals(Precision.NANOSECONDS, Precision.parse("ns"));
    assertEquals(Precision.NANOSECONDS, Precision.parse("n"));
    assertEquals(Precision.MICROSECONDS, Precision.parse("us"));
    assertEquals(Precision.MICROSECONDS, Precision.parse("u"));
    assertEquals(Precision.MILLISECONDS, Precision.parse("ms"));
    assertEquals(Precision.SECONDS, Precision.parse("s"));
    assertEquals(Precision.MINUTES, Precision.parse("m"));
    assertEquals(Precision.HOURS, Precision.parse("h"));
  }

  @Test
  void anUnknownPrecisionNamesTheValueAndTheAcceptedSpellings() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Precision.parse("sec"));

    assertTrue(e.getMessage().contains("'sec'"), e.getMessage());
    assertTrue(e.getMessage().contains("ns, us, ms or s"), e.getMessage());
    assertTrue(e.getMessage().contains("n, u, ms, s, m or h"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Precision.parse("NS"));
  }

  @Test
  void aLineWithoutTimestampGetsTheDefault() {
    assertEquals(DEFAULT, point("m v=1").micros());
    assertEquals(DEFAULT, point("m,t=a v=1,w=\"x y\"   ").micros());
    assertEquals(DEFAULT, parse("m v=1", Precision.HOURS).get(0).micros());
  }

  @Test
  void commentsAndBlankLinesAreSkippedButCounted() {
    List<Point> points = parse("# header\n\nm v=1 1000\n   \n\t# indented comment\nm v=2 2000\n");

    assertEquals(2, points.size());
    assertEquals(3, points.get(0).line());
    assertEquals(6, points.get(1).line());
    assertEquals(List.of(1L, 2L), points.stream().map(Point::micros).toList());
  }

  @Test
  void crlfEndsLinesLikeLf() {
    List<Point> points =
        parse("m,t=a v=1 1000\r\n\r\n# c\r\nm s=\"x\"\r\nm b=t\r\nm v=3i 3000\r\n");

    assertEquals(4, points.size());
    assertEquals(Map.of("t", "a"), points.get(0).tags());
    assertEquals(1L, points.get(0).micros());
    assertEquals("x", points.get(1).fields().get(0).value());
    assertEquals(true, points.get(2).fields().get(0).value());
    assertEquals(3L, points.get(3).fields().get(0).value());
    assertEquals(List.of(1, 4, 5, 6), points.stream().map(Point::line).toList());
  }

  @Test
  void theLastLineNeedsNoNewline() {
    List<Point> points = parse("m v=1\nm v=2");

    assertEquals(2, points.size());
    assertEquals(2.0, points.get(1).fields().get(0).value());
  }

  @Test
  void anEmptyBodyHasNoPoints() {
    assertEquals(List.of(), parse(""));
    assertEquals(List.of(), parse("\n\n# only comments\n"));
  }

  @Test
  void extraWhitespaceAroundTheSectionsIsTolerated() {
    Point p = point("  m,t=a   v=1\t  123 \t ");

    assertEquals("m", p.measurement());
    assertEquals(Map.of("t", "a"), p.tags());
    assertEquals(0L, p.micros());
  }

  @Test
  void theTextOfAnInvalidFieldValueIsQuotedWithTheExpectedForms() {
    ParseException e = error("# header\n\ncpu,host=a temp=abc 1700000000\n");

    assertEquals(
        "line 3: invalid field value 'abc' for field 'temp' (expected a number, 12i, 12u,"
            + " \"text\", true or false): cpu,host=a temp=abc 1700000000",
        e.getMessage());
    assertEquals(3, e.line());
    assertEquals(Optional.of("temp"), e.field());
  }

  @Test
  void malformedNumbersAndBooleansAreInvalidValues() {
    for (String bad :
        List.of(
            "1.5i", "1e3i", "12ii", "1x", "1.2.3", "1e", "1e+", "-", ".", "--1", "+1", "0x10",
            "tru", "yes", "TRue", "t1", "1_000")) {
      ParseException e = assertError("m v=" + bad + " 1", 1, "invalid field value '" + bad + "'");
      assertEquals(Optional.of("v"), e.field());
    }
  }

  @Test
  void nanAndInfinityAreRejected() {
    for (String bad : List.of("NaN", "nan", "Inf", "inf", "-Inf", "+Inf", "Infinity")) {
      assertError("m v=" + bad, 1, "invalid field value '" + bad + "' for field 'v'");
    }
  }

  @Test
  void aDoubleBeyondTheRangeIsAnError() {
    assertError("m x=1e400", 1, "float value '1e400' for field 'x' is out of range");
    assertError("m x=-1e400", 1, "float value '-1e400' for field 'x' is out of range");
  }

  @Test
  void aBigintBeyondTheRangeOfLongIsAnError() {
    ParseException e =
        assertError(
            "m v=1\nm x=9223372036854775808i",
            2,
            "integer value '9223372036854775808i' for field 'x' is out of range");
    assertEquals(Optional.of("x"), e.field());
    assertError("m x=-9223372036854775809i", 1, "'-9223372036854775809i'", "out of range");
  }

  @Test
  void anUnsignedValueOutsideZeroTo2To64IsAnError() {
    assertError(
        "m x=18446744073709551616u",
        1,
        "unsigned integer value '18446744073709551616u' for field 'x' is out of range",
        "(0u to 18446744073709551615u)");
    assertError("m x=-1u", 1, "unsigned integer value '-1u'", "out of range");
  }

  @Test
  void anUnterminatedStringIsAnError() {
    ParseException e =
        assertError("m s=\"abc\r\n", 1, "unterminated string value for field 's': '\"abc'");
    assertEquals(Optional.of("s"), e.field());
    assertError("m v=1\nm s=\"ends with an escaped quote\\\"", 2, "unterminated string value");
    assertError("m s=\"no newline in strings\nhere\"", 1, "unterminated string value");
  }

  @Test
  void textRightAfterAStringIsAnInvalidValue() {
    assertError("m s=\"a b\"c", 1, "invalid field value '\"a b\"c' for field 's'");
  }

  @Test
  void anEmptyMeasurementIsAnError() {
    ParseException e = assertError("m v=1\n,t=a v=1", 2, "empty measurement name", ",t=a v=1");
    assertEquals(Optional.empty(), e.field());
  }

  @Test
  void aLineWithoutFieldsIsAnError() {
    assertError("cpu", 1, "no fields after 'cpu'");
    assertError("cpu,host=a", 1, "no fields after 'cpu,host=a'");
    assertError("cpu,host=a   \r\n", 1, "no fields after 'cpu,host=a'");
  }

  @Test
  void aTimestampWhereTheFieldsBelongIsAnError() {
    assertError(
        "cpu,host=a 1700000000", 1, "expected a field key=value, found '1700000000'", "cpu,host=a");
  }

  @Test
  void anEmptyTagKeyIsAnError() {
    assertError("m,=a v=1", 1, "empty tag key in '=a'");
    assertError("m,t=a, v=1", 1, "empty tag key after ','");
    assertError("m, v=1", 1, "empty tag key after ','");
  }

  @Test
  void anEmptyTagValueIsAnError() {
    assertError("m,t= v=1", 1, "empty value for tag 't'");
    assertError("m,t=,u=b v=1", 1, "empty value for tag 't'");
  }

  @Test
  void aTagWithoutEqualsSignIsAnError() {
    assertError("m,host v=1", 1, "missing '=' after tag key 'host'");
  }

  @Test
  void anUnescapedEqualsSignInATagValueIsAnError() {
    assertError("m,t=a=b v=1", 1, "unescaped '=' in the value of tag 't': 't=a=b'");
  }

  @Test
  void aDuplicateTagKeyIsAnError() {
    assertError("m,t=a,u=b,t=c v=1", 1, "duplicate tag key 't'");
  }

  @Test
  void aDuplicateFieldKeyIsAnError() {
    ParseException e = assertError("m v=1,w=2,v=3", 1, "duplicate field key 'v'");
    assertEquals(Optional.of("v"), e.field());
  }

  @Test
  void aDuplicateFieldKeyIsFoundInWideLines() {
    StringBuilder line = new StringBuilder("m f0=0");
    for (int i = 1; i < 40; i++) {
      line.append(",f").append(i).append('=').append(i);
    }
    assertEquals(40, point(line.toString()).fields().size());
    assertError(line + ",f3=1", 1, "duplicate field key 'f3'");
    assertError(line + ",f39=1", 1, "duplicate field key 'f39'");
  }

  @Test
  void anEmptyFieldKeyIsAnError() {
    assertError("m =1", 1, "empty field key in '=1'");
    assertError("m v=1,", 1, "empty field key after ','");
    assertError("m v=1,,w=2", 1, "empty field key after ','");
  }

  @Test
  void aFieldKeyWithoutValueIsAnError() {
    ParseException e = assertError("m v=1,w 5", 1, "missing '=' after field key 'w'");
    assertEquals(Optional.of("w"), e.field());
  }

  @Test
  void anEmptyFieldValueIsAnError() {
    assertError("m v=", 1, "missing value for field 'v'");
    assertError("m v= 1", 1, "missing value for field 'v'");
    assertError("m v=,w=1", 1, "missing value for field 'v'");
  }

  @Test
  void aTimestampThatIsNoIntegerIsAnError() {
    assertError("m v=1 12a", 1, "invalid timestamp '12a' (expected an integer)");
    assertError("m v=1 1.5", 1, "invalid timestamp '1.5'");
    assertError("m v=1 -", 1, "invalid timestamp '-'");
    assertError("m v=1 2024-01-01T00:00:00Z", 1, "invalid timestamp '2024-01-01T00:00:00Z'");
  }

  @Test
  void aTimestampBeyondTheRangeOfLongIsAnError() {
    assertError("m v=1 9223372036854775808", 1, "timestamp '9223372036854775808' is out of range");
  }

  @Test
  void aTimestampThatOverflowsInMicrosecondsIsAnError() {
    ParseException e = error("m v=1\nm v=1 9223372036854775807", Precision.SECONDS);

    assertEquals(2, e.line());
    assertTrue(
        e.getMessage()
            .startsWith("line 2: timestamp '9223372036854775807' in seconds is out of range"),
        e.getMessage());
  }

  @Test
  void aTimestampOutsideTheTimesTheEngineStoresIsAnError() {
    // DuckDB's TIMESTAMPTZ: 290309-12-22 (BC) 00:00:00 to one µs before its infinity (max long).
    long earliest =
        java.time.LocalDateTime.of(-290308, 12, 22, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC)
            * 1_000_000L;
    long latest = Long.MAX_VALUE - 1;
    assertEquals(earliest, parse("m v=1 " + earliest, Precision.MICROSECONDS).get(0).micros());
    assertEquals(latest, parse("m v=1 " + latest, Precision.MICROSECONDS).get(0).micros());
    assertEquals(
        earliest, parse("m v=1 " + earliest / 1_000_000L, Precision.SECONDS).get(0).micros());

    Map<String, Precision> unstorable =
        Map.of(
            Long.toString(latest + 1), Precision.MICROSECONDS,
            Long.toString(earliest - 1), Precision.MICROSECONDS,
            Long.toString(earliest / 1_000L - 1), Precision.MILLISECONDS,
            Long.toString(earliest / 1_000_000L - 1), Precision.SECONDS);
    unstorable.forEach(
        (timestamp, precision) -> {
          ParseException e = error("m v=1\nm v=2 " + timestamp, precision);
          assertEquals(2, e.line());
          assertTrue(
              e.getMessage()
                  .startsWith(
                      "line 2: timestamp '"
                          + timestamp
                          + "' in "
                          + precision.name().toLowerCase(java.util.Locale.ROOT)
                          + " is out of range: it is not within the times Timelake stores"
                          + " (290309-12-22 BC to 294247-01-10 AD)"),
              e.getMessage());
        });
  }

  @Test
  void textAfterTheTimestampIsAnError() {
    assertError("m v=1 123 456", 1, "unexpected text after the timestamp: '456'");
  }

  @Test
  void theLineInAnErrorIsCutTo200Characters() {
    String line = "m v=oops," + "x".repeat(300) + "=1";

    ParseException e = assertError(line, 1, "invalid field value 'oops'");

    String shown = e.getMessage().substring(e.getMessage().lastIndexOf(": ") + 2);
    assertEquals(200, shown.length());
    assertTrue(shown.startsWith("m v=oops,xxx"), shown);
    assertTrue(shown.endsWith("..."), shown);
  }

  @Test
  void theFirstMalformedLineIsReported() {
    assertError("m v=1\n# c\n\nm v=2\nm v=x\nm v=y", 5, "'x'", ": m v=x");
  }
}

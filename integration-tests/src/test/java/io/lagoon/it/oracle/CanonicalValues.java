package io.lagoon.it.oracle;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The leaf formatting shared by {@link PaimonOracle} (Paimon rows) and {@link SparkRows} (Spark
 * rows), so both sides print a value the same way. See {@link PaimonOracle} for the whole format.
 *
 * <p>Depends on the JDK only: it is loaded in both the Paimon 1.3.1 and the Paimon 0.9 test JVMs.
 */
public final class CanonicalValues {

    /** Always prints seconds; the fraction is printed with as few digits as needed (none if zero). */
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ISO_LOCAL_DATE_TIME;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ISO_LOCAL_TIME;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalValues() {}

    public static final String NULL = "null";

    public static String decimal(BigDecimal value) {
        return value.toPlainString();
    }

    public static String date(LocalDate value) {
        return value.toString();
    }

    public static String time(LocalTime value) {
        return TIME.format(value);
    }

    public static String timestamp(LocalDateTime value) {
        return DATE_TIME.format(value);
    }

    /** An instant (TIMESTAMP WITH LOCAL TIME ZONE / Spark TIMESTAMP) prints as its UTC wall clock. */
    public static String instant(Instant value) {
        return timestamp(LocalDateTime.ofInstant(value, ZoneOffset.UTC));
    }

    public static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[bytes[i] & 0xF];
        }
        return new String(out);
    }

    public static String floatValue(float value) {
        return Float.toString(value);
    }

    public static String doubleValue(double value) {
        return Double.toString(value);
    }

    /** {@code [e1, e2]} from already rendered elements. */
    public static String array(List<String> renderedElements) {
        return "[" + String.join(", ", renderedElements) + "]";
    }

    /** {@code {k1=v1, k2=v2}} from already rendered entries, sorted by the rendered key. */
    public static String map(List<Map.Entry<String, String>> renderedEntries) {
        List<Map.Entry<String, String>> sorted = new ArrayList<>(renderedEntries);
        sorted.sort(Map.Entry.<String, String>comparingByKey()
                .thenComparing(Map.Entry.comparingByValue(Comparator.naturalOrder())));
        List<String> parts = new ArrayList<>(sorted.size());
        for (Map.Entry<String, String> e : sorted) {
            parts.add(e.getKey() + "=" + e.getValue());
        }
        return "{" + String.join(", ", parts) + "}";
    }

    /** {@code {x=1, y=b}} for a nested row/struct, in field order. */
    public static String struct(List<String> names, List<String> renderedValues) {
        return "{" + fields(names, renderedValues) + "}";
    }

    /** {@code a=1, b=2}: a top-level row, in field order. */
    public static String fields(List<String> names, List<String> renderedValues) {
        if (names.size() != renderedValues.size()) {
            throw new IllegalArgumentException(names + " vs " + renderedValues);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(names.get(i)).append('=').append(renderedValues.get(i));
        }
        return sb.toString();
    }
}

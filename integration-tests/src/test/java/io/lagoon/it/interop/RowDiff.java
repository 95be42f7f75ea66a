package io.lagoon.it.interop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Compares two sorted lists of canonical rows and describes the difference compactly: rows
 * matched by their first field (the id) are compared column by column, so a wrong value shows as
 * {@code id=7: ts expected 1500-06-01T12:00 but was 1500-06-11T12:00}. Collects the differences
 * of many checks, so one test run reports every problem instead of the first. JDK only.
 */
public final class RowDiff {

    private final List<String> problems = new ArrayList<>();

    /** Records a problem when {@code actual} differs from {@code expected}. */
    public void check(String what, List<String> expected, List<String> actual) {
        String d = describe(expected, actual);
        if (d != null) {
            problems.add(what + ": " + d);
        }
    }

    public void problem(String text) {
        problems.add(text);
    }

    public List<String> problems() {
        return problems;
    }

    /** Null when equal, else a short description (at most a few rows and columns). */
    public static String describe(List<String> expected, List<String> actual) {
        if (expected.equals(actual)) {
            return null;
        }
        Map<String, List<String>> e = byKey(expected);
        Map<String, List<String>> a = byKey(actual);
        TreeSet<String> keys = new TreeSet<>(e.keySet());
        keys.addAll(a.keySet());
        List<String> out = new ArrayList<>();
        Map<String, Integer> columnCounts = new LinkedHashMap<>();
        int shown = 0;
        for (String k : keys) {
            List<String> er = e.getOrDefault(k, List.of());
            List<String> ar = a.getOrDefault(k, List.of());
            if (er.equals(ar)) {
                continue;
            }
            if (er.size() == 1 && ar.size() == 1) {
                List<String> cols = diffColumns(er.get(0), ar.get(0));
                for (String c : cols) {
                    String name = c.substring(0, c.indexOf(' '));
                    columnCounts.merge(name, 1, Integer::sum);
                }
                if (shown++ < 4) {
                    out.add(k + ": " + String.join("; ", cols));
                }
            } else if (shown++ < 4) {
                out.add(k + ": expected " + er.size() + " row(s) " + abbreviate(er) + " but was " + ar.size()
                        + " " + abbreviate(ar));
            }
        }
        return "expected " + expected.size() + " rows, was " + actual.size() + "; differing columns " + columnCounts
                + "; " + String.join(" | ", out);
    }

    private static String abbreviate(List<String> rows) {
        String s = rows.toString();
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    private static Map<String, List<String>> byKey(List<String> rows) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String r : rows) {
            List<String> fields = topLevelFields(r);
            out.computeIfAbsent(fields.isEmpty() ? r : fields.get(0), k -> new ArrayList<>()).add(r);
        }
        return out;
    }

    private static List<String> diffColumns(String expected, String actual) {
        List<String> ef = topLevelFields(expected);
        List<String> af = topLevelFields(actual);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.max(ef.size(), af.size()); i++) {
            String x = i < ef.size() ? ef.get(i) : "";
            String y = i < af.size() ? af.get(i) : "";
            if (!x.equals(y)) {
                int eq = x.indexOf('=');
                String name = eq > 0 ? x.substring(0, eq) : "#" + i;
                out.add(name + " expected " + (eq > 0 ? x.substring(eq + 1) : x) + " but was "
                        + (y.indexOf('=') > 0 ? y.substring(y.indexOf('=') + 1) : y));
            }
        }
        return out;
    }

    /** Splits {@code a=1, b=[1, 2], c={x=1, y=2}} at top-level {@code ", "}. */
    static List<String> topLevelFields(String row) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < row.length(); i++) {
            char ch = row.charAt(i);
            if (ch == '[' || ch == '{') {
                depth++;
            } else if (ch == ']' || ch == '}') {
                depth--;
            } else if (depth == 0 && ch == ',' && i + 1 < row.length() && row.charAt(i + 1) == ' ') {
                out.add(row.substring(start, i));
                start = i + 2;
                i++;
            }
        }
        out.add(row.substring(start));
        return out;
    }
}

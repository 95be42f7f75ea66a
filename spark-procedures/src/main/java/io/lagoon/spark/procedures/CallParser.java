package io.lagoon.spark.procedures;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the text of a {@code CALL} statement: {@code CALL [catalog.]sys.procedure(args)} where the
 * arguments are all positional ({@code 'db.t', 'tag1'}) or all named ({@code table => 'db.t'}).
 * Only the statement's shape is read here; each argument's value stays text, parsed later as a
 * Spark expression. Anything that does not start with the keyword {@code CALL} is not a call
 * ({@link #isCall}) and goes to Spark's own parser untouched.
 */
public final class CallParser {
  private final String sql;
  private int pos;

  private CallParser(String sql) {
    this.sql = sql;
  }

  /** One argument as written: its name ({@code null} when positional) and its value's text. */
  public record RawArgument(String name, String value) {
  }

  /** A parsed call: the procedure's name parts as written and its arguments in order. */
  public record Call(List<String> name, List<RawArgument> arguments) {
  }

  /** Whether the statement starts with the keyword {@code CALL} (after white space and comments). */
  public static boolean isCall(String sql) {
    CallParser p = new CallParser(sql);
    p.skipSpace();
    return p.keyword("CALL");
  }

  /** Parses a statement for which {@link #isCall} holds. */
  public static Call parse(String sql) {
    CallParser p = new CallParser(sql);
    p.skipSpace();
    if (!p.keyword("CALL")) throw p.error("a CALL statement starts with CALL");
    p.pos += 4;
    List<String> name = p.name();
    p.skipSpace();
    p.expect('(', "'(' after the procedure name " + String.join(".", name));
    List<RawArgument> args = p.arguments();
    p.skipSpace();
    if (p.pos < sql.length() && sql.charAt(p.pos) == ';') {
      p.pos++;
      p.skipSpace();
    }
    if (p.pos < sql.length()) throw p.error("unexpected text after the argument list");
    boolean named = false;
    boolean positional = false;
    for (RawArgument a : args) {
      if (a.name() == null) positional = true;
      else named = true;
    }
    if (named && positional) {
      throw p.error("arguments are either all named (name => value) or all positional, not mixed");
    }
    return new Call(name, args);
  }

  private List<String> name() {
    List<String> parts = new ArrayList<>();
    do {
      skipSpace();
      parts.add(identifier());
      skipSpace();
    } while (pos < sql.length() && sql.charAt(pos) == '.' && pos++ >= 0);
    return parts;
  }

  private String identifier() {
    if (pos < sql.length() && sql.charAt(pos) == '`') {
      StringBuilder b = new StringBuilder();
      pos++;
      while (true) {
        if (pos >= sql.length()) throw error("unterminated back-quoted name");
        char c = sql.charAt(pos++);
        if (c == '`') {
          if (pos < sql.length() && sql.charAt(pos) == '`') {
            b.append('`');
            pos++;
          } else {
            break;
          }
        } else {
          b.append(c);
        }
      }
      return b.toString();
    }
    int start = pos;
    while (pos < sql.length() && (Character.isLetterOrDigit(sql.charAt(pos)) || sql.charAt(pos) == '_')) pos++;
    if (start == pos) throw error("a procedure name such as sys.create_tag");
    return sql.substring(start, pos);
  }

  /** The arguments up to the closing parenthesis, split at top-level commas. */
  private List<RawArgument> arguments() {
    List<RawArgument> out = new ArrayList<>();
    skipSpace();
    if (pos < sql.length() && sql.charAt(pos) == ')') {
      pos++;
      return out;
    }
    while (true) {
      int start = pos;
      int depth = 0;
      while (true) {
        if (pos >= sql.length()) throw error("unclosed argument list: ')' is missing");
        char c = sql.charAt(pos);
        if (c == '\'' || c == '"' || c == '`') {
          skipQuoted(c);
          continue;
        }
        if (startsComment()) {
          skipComment();
          continue;
        }
        if (c == '(' || c == '[') depth++;
        if ((c == ')' || c == ']') && depth > 0) {
          depth--;
        } else if (depth == 0 && (c == ',' || c == ')')) {
          break;
        }
        pos++;
      }
      out.add(argument(sql.substring(start, pos), start));
      char end = sql.charAt(pos++);
      if (end == ')') return out;
    }
  }

  private RawArgument argument(String text, int at) {
    String t = text.strip();
    if (t.isEmpty()) throw errorAt(at, "an argument is empty");
    int arrow = arrowOf(t);
    if (arrow < 0) return new RawArgument(null, t);
    String name = t.substring(0, arrow).strip();
    String value = t.substring(arrow + 2).strip();
    if (name.startsWith("`") && name.endsWith("`") && name.length() >= 2) name = name.substring(1, name.length() - 1);
    if (name.isEmpty() || !name.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_')) {
      throw errorAt(at, "an argument name must be a plain name, got '" + name + "'");
    }
    if (value.isEmpty()) throw errorAt(at, "argument " + name + " has no value after '=>'");
    return new RawArgument(name.toLowerCase(Locale.ROOT), value);
  }

  /** Index of a top-level {@code =>} that follows a leading name, or -1. */
  private static int arrowOf(String t) {
    int i = 0;
    if (i < t.length() && t.charAt(i) == '`') {
      int close = t.indexOf('`', 1);
      if (close < 0) return -1;
      i = close + 1;
    } else {
      while (i < t.length() && (Character.isLetterOrDigit(t.charAt(i)) || t.charAt(i) == '_')) i++;
    }
    int j = i;
    while (j < t.length() && Character.isWhitespace(t.charAt(j))) j++;
    return j + 1 < t.length() && t.charAt(j) == '=' && t.charAt(j + 1) == '>' && i > 0 ? j : -1;
  }

  private void skipQuoted(char quote) {
    pos++;
    while (pos < sql.length()) {
      char c = sql.charAt(pos++);
      if (c == '\\' && quote != '`') {
        pos++;
      } else if (c == quote) {
        return;
      }
    }
    throw error("unterminated quote " + quote);
  }

  private boolean startsComment() {
    return sql.startsWith("--", pos) || sql.startsWith("/*", pos);
  }

  private void skipComment() {
    if (sql.startsWith("--", pos)) {
      int nl = sql.indexOf('\n', pos);
      pos = nl < 0 ? sql.length() : nl + 1;
    } else {
      int close = sql.indexOf("*/", pos + 2);
      if (close < 0) throw error("unterminated comment");
      pos = close + 2;
    }
  }

  private void skipSpace() {
    while (pos < sql.length()) {
      if (Character.isWhitespace(sql.charAt(pos))) pos++;
      else if (startsComment()) skipComment();
      else return;
    }
  }

  private boolean keyword(String word) {
    int end = pos + word.length();
    return sql.regionMatches(true, pos, word, 0, word.length())
        && (end == sql.length() || !(Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'));
  }

  private void expect(char c, String what) {
    if (pos >= sql.length() || sql.charAt(pos) != c) throw error("expected " + what);
    pos++;
  }

  private IllegalArgumentException error(String what) {
    return errorAt(pos, what);
  }

  private IllegalArgumentException errorAt(int at, String what) {
    return new IllegalArgumentException("Syntax error in CALL at position " + at + ": " + what
        + ". The form is CALL [catalog.]sys.<procedure>(name => value, ...) or (value, ...)");
  }
}

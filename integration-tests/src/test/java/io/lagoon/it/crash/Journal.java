package io.lagoon.it.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A child writer's record of its statements, one line each, forced to disk before it goes on:
 * {@code begin <i>} before statement i starts, {@code done <i>} once it returned, and
 * {@code violation <text>} when a check of its own failed. Lines survive a SIGKILL; a line being
 * written at the kill may be cut, and is ignored.
 */
final class Journal {
  private final Path file;

  Journal(Path file) {
    this.file = file;
  }

  void append(String line) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND)) {
      ch.write(java.nio.ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<String> lines() {
    if (!Files.exists(file)) return List.of();
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      List<String> out = new ArrayList<>();
      int start = 0;
      for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        out.add(text.substring(start, nl));
        start = nl + 1;
      }
      return out; // a last line without its newline was cut by the kill
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Statement numbers of the lines starting with {@code word} ("begin", "done"), in order. */
  List<Integer> numbers(String word) {
    List<Integer> out = new ArrayList<>();
    for (String l : lines()) if (l.startsWith(word + " ")) out.add(Integer.parseInt(l.substring(word.length() + 1)));
    return out;
  }

  List<String> violations() {
    List<String> out = new ArrayList<>();
    for (String l : lines()) if (l.startsWith("violation ")) out.add(l.substring("violation ".length()));
    return out;
  }
}

package io.lagoon.core.commit;

/** A commit could not be published: it lost too many races, or what it replaces is gone. */
public class CommitConflictException extends RuntimeException {
  public CommitConflictException(String msg) {
    super(msg);
  }
}

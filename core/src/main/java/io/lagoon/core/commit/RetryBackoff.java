package io.lagoon.core.commit;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The pause before a commit that lost a race tries again: random, growing with the attempt, so
 * racing writers spread out instead of colliding again at once.
 */
public final class RetryBackoff {
  private RetryBackoff() {}

  public static void pause(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L + Math.min(attempt, 10) * 20L));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommitConflictException("interrupted while retrying a commit");
    }
  }
}

package io.lagoon.spark.compact;

import java.util.function.Supplier;
import org.apache.spark.SparkContext;

/** Runs work under a job description, so a procedure's jobs and stages are named in the Spark UI. */
public final class SparkJobs {
  private SparkJobs() {}

  public static <T> T described(SparkContext sc, String description, Supplier<T> work) {
    String key = "spark.job.description";
    String before = sc.getLocalProperty(key);
    sc.setJobDescription(description);
    try {
      return work.get();
    } finally {
      sc.setLocalProperty(key, before);
    }
  }
}

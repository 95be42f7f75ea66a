package io.lagoon.core.mergetree.read;

import io.lagoon.core.mergetree.Section;
import io.lagoon.core.mergetree.RunIterator;
import io.lagoon.core.manifest.DataFileMeta;
import io.lagoon.core.mergetree.CloseableIterator;
import io.lagoon.core.mergetree.KeyComparator;
import io.lagoon.core.mergetree.KeyValueSource;
import io.lagoon.core.mergetree.SortedRunMerger;
import io.lagoon.core.mergetree.engine.KeyValue;
import io.lagoon.core.mergetree.engine.MergeFunction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.Path;

/**
 * Merge-on-read of the sections of one bucket: each section's sorted runs go through a
 * {@link SortedRunMerger} with the table's merge function and record order, and the sections
 * follow each other in key order. Only one section's files are open at a time.
 */
public final class MergeTreeReader {
  private final KeyValueSource source;
  private final KeyComparator keys;
  private final Comparator<KeyValue> recordOrder;
  private final MergeFunction merge;
  /** Whether keys whose merged record is a retraction are returned too (an audit log's reads). */
  private boolean keepDeletes;

  public MergeTreeReader(KeyValueSource source, KeyComparator keys, Comparator<KeyValue> recordOrder,
                         MergeFunction merge) {
    this.source = source;
    this.keys = keys;
    this.recordOrder = recordOrder;
    this.merge = merge;
  }

  /** This reader, returning retracted keys too, with the retraction as their merged record. */
  public MergeTreeReader keepingDeletes() {
    keepDeletes = true;
    return this;
  }

  /** One merged record per live key of the sections (retracted keys are dropped unless {@link #keepingDeletes}). */
  public CloseableIterator<KeyValue> read(Path bucketDir, List<Section> sections) {
    return new Merged(bucketDir, sections.iterator());
  }

  private final class Merged implements CloseableIterator<KeyValue> {
    private final Path bucketDir;
    private final Iterator<Section> sections;
    private final List<RunIterator> open = new ArrayList<>();
    private SortedRunMerger current;

    Merged(Path bucketDir, Iterator<Section> sections) {
      this.bucketDir = bucketDir;
      this.sections = sections;
    }

    @Override
    public boolean hasNext() {
      while (current == null || !current.hasNext()) {
        closeOpen();
        if (!sections.hasNext()) return false;
        List<Iterator<KeyValue>> runs = new ArrayList<>();
        for (List<DataFileMeta> run : sections.next().runs()) {
          RunIterator it = new RunIterator(source, bucketDir, run);
          open.add(it);
          runs.add(it);
        }
        current = keepDeletes ? SortedRunMerger.keepingDeletes(runs, keys, recordOrder, merge)
            : new SortedRunMerger(runs, keys, recordOrder, merge);
      }
      return true;
    }

    @Override
    public KeyValue next() {
      if (!hasNext()) throw new NoSuchElementException();
      return current.next();
    }

    private void closeOpen() {
      for (RunIterator r : open) r.close();
      open.clear();
      current = null;
    }

    @Override
    public void close() {
      closeOpen();
    }
  }
}

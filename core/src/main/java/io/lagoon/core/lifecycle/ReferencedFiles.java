package io.lagoon.core.lifecycle;

import io.lagoon.core.manifest.FileKind;
import io.lagoon.core.manifest.IndexManifestEntry;
import io.lagoon.core.manifest.ManifestEntry;
import io.lagoon.core.manifest.ManifestFileMeta;
import io.lagoon.core.manifest.ManifestFiles;
import io.lagoon.core.scan.LiveFiles;
import io.lagoon.core.snapshot.Snapshot;
import io.lagoon.core.table.DataFilePaths;
import io.lagoon.core.table.FileStoreTable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The files some snapshots use, by kind: data files (with their extra files) and changelog files
 * as paths relative to the table, manifests, manifest lists, index manifests and index files by
 * name. Expiry, rollback, tag deletion and orphan removal each build one set of what stays and
 * one of what goes, and delete the difference: the one place that knows what a snapshot holds.
 *
 * <p>A set of what stays is strict: a file of it that cannot be read fails the operation before
 * anything is deleted. A set of what goes may be lenient: an earlier, interrupted run may have
 * deleted some of its metadata already (data files go first, so what such metadata named is gone).
 */
final class ReferencedFiles {
  private final ManifestFiles mf;
  private final DataFilePaths paths;
  private final boolean lenient;
  final Set<String> dataFiles = new HashSet<>();
  final Set<String> manifests = new HashSet<>();
  final Set<String> manifestLists = new HashSet<>();
  final Set<String> indexManifests = new HashSet<>();
  final Set<String> indexFiles = new HashSet<>();

  private ReferencedFiles(FileStoreTable table, boolean lenient) {
    this.mf = table.manifests();
    this.paths = table.paths();
    this.lenient = lenient;
  }

  /** What must stay: any unreadable metadata is an error. */
  static ReferencedFiles kept(FileStoreTable table) {
    return new ReferencedFiles(table, false);
  }

  /** What may go: metadata already deleted by an interrupted earlier run is skipped. */
  static ReferencedFiles removable(FileStoreTable table) {
    return new ReferencedFiles(table, true);
  }

  /** Everything a snapshot uses: its metadata and every data file live in it. */
  void addWhole(Snapshot s) throws IOException {
    addMetadata(s);
    List<ManifestEntry> all = new ArrayList<>();
    for (ManifestFileMeta m : manifestsOf(s)) all.addAll(read(m));
    for (ManifestEntry e : LiveFiles.merge(all)) addData(e);
    addChangelog(s);
  }

  /**
   * A snapshot's metadata and the data files it added: with {@link #addWhole} of the snapshot
   * before it, this covers every data file either was using.
   */
  void addDelta(Snapshot s) throws IOException {
    addMetadata(s);
    if (s.deltaManifestList != null) {
      for (ManifestFileMeta m : list(s.deltaManifestList)) {
        for (ManifestEntry e : read(m)) if (e.kind == FileKind.ADD) addData(e);
      }
    }
    addChangelog(s);
  }

  private void addMetadata(Snapshot s) throws IOException {
    for (String l : new String[] {s.baseManifestList, s.deltaManifestList, s.changelogManifestList}) {
      if (l == null) continue;
      manifestLists.add(l);
      for (ManifestFileMeta m : list(l)) manifests.add(m.fileName);
    }
    if (s.indexManifest != null) {
      indexManifests.add(s.indexManifest);
      for (IndexManifestEntry e : readIndex(s.indexManifest)) indexFiles.add(e.fileName);
    }
  }

  private void addChangelog(Snapshot s) throws IOException {
    if (s.changelogManifestList == null) return;
    for (ManifestFileMeta m : list(s.changelogManifestList)) {
      for (ManifestEntry e : read(m)) if (e.kind == FileKind.ADD) addData(e);
    }
  }

  private void addData(ManifestEntry e) {
    // A file kept outside the table (Paimon's external paths) is never Lagoon's to delete.
    if (e.file.externalPath != null) return;
    String dir = paths.bucketPath(e.partition, e.bucket) + "/";
    dataFiles.add(dir + e.file.fileName);
    for (String extra : e.file.extraFiles) dataFiles.add(dir + extra);
  }

  private List<ManifestFileMeta> manifestsOf(Snapshot s) throws IOException {
    List<ManifestFileMeta> out = new ArrayList<>();
    if (s.baseManifestList != null) out.addAll(list(s.baseManifestList));
    if (s.deltaManifestList != null) out.addAll(list(s.deltaManifestList));
    return out;
  }

  private List<ManifestFileMeta> list(String name) throws IOException {
    try {
      return mf.readManifestList(name);
    } catch (FileNotFoundException e) {
      if (lenient) return List.of();
      throw e;
    }
  }

  private List<ManifestEntry> read(ManifestFileMeta m) throws IOException {
    try {
      return mf.readManifest(m);
    } catch (FileNotFoundException e) {
      if (lenient) return List.of();
      throw e;
    }
  }

  private List<IndexManifestEntry> readIndex(String name) throws IOException {
    try {
      return mf.readIndexManifest(name);
    } catch (FileNotFoundException e) {
      if (lenient) return List.of();
      throw e;
    }
  }

  void addAll(ReferencedFiles other) {
    dataFiles.addAll(other.dataFiles);
    manifests.addAll(other.manifests);
    manifestLists.addAll(other.manifestLists);
    indexManifests.addAll(other.indexManifests);
    indexFiles.addAll(other.indexFiles);
  }

  /** Names of the data and changelog files (orphan removal matches by name, as names are unique). */
  Set<String> dataFileNames() {
    Set<String> out = new HashSet<>();
    for (String p : dataFiles) out.add(p.substring(p.lastIndexOf('/') + 1));
    return out;
  }
}

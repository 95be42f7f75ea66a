package io.lagoon.core.snapshot;

/** Why a snapshot was made. */
public enum CommitKind { APPEND, COMPACT, OVERWRITE, ANALYZE }

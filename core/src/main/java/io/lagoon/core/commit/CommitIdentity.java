package io.lagoon.core.commit;

import java.io.Serializable;

/**
 * Who commits and which of their commits this is: a streaming query's stable id and its batch id,
 * stored in the snapshot as {@code commitUser} and {@code commitIdentifier}, as Paimon does. A
 * commit of new data whose user already committed this identifier (or a later one) is skipped, so
 * a batch replayed after a restart is not written twice.
 */
public record CommitIdentity(String user, long identifier) implements Serializable {
}

package io.jobinfo.store.spi;

/** What a successful {@link JobInfoStore#create} did. */
public enum CreateOutcome {
    /** This call wrote the blob. */
    CREATED,
    /** A blob with identical bytes was already stored (for example a retried submit); nothing was written. */
    ALREADY_PRESENT
}

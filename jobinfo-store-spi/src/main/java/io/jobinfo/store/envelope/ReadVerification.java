package io.jobinfo.store.envelope;

/**
 * How much of a stored blob a read checks before it hands the payload over. Both levels check every byte and every
 * structural field; they differ only in whether the payload's SHA-256 is computed again. See
 * {@code docs/design.md}, "Read verification", for what each detects.
 */
public enum ReadVerification {

    /**
     * Header (magic, version, header CRC32C), job id, declared length against the bytes read (no fewer, no more),
     * payload CRC32C and payload SHA-256. Detects accidental damage and a deliberate rewrite of the payload by anyone
     * who cannot also change the SHA-256 the reader compares with (the pointer in the cluster's map). The default.
     */
    FULL,

    /**
     * Everything {@link #FULL} checks except the payload's SHA-256: header, job id, length, payload CRC32C. Detects
     * torn writes, truncation, bit rot and a blob of another job as {@link #FULL} does (the header's SHA-256 field is
     * still compared with the pointer's), at about 1/15 of the CPU per byte here; it does <em>not</em> detect a
     * deliberate rewrite that keeps the length and forges the CRC32C (easy: CRC32C is linear). Choose it only where
     * whoever can write the store is trusted as much as a cluster member.
     */
    CRC32C
}

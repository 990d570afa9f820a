package io.jobinfo.store.envelope;

/** The bytes are not a valid envelope; the message says what is wrong. Stores turn it into a CorruptBlobException. */
public class EnvelopeFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public EnvelopeFormatException(String message) {
        super(message);
    }
}

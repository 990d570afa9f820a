package io.jobinfo.store.codec;

/** A payload cannot be decoded by the codec named in its envelope. */
public class CodecException extends Exception {
    private static final long serialVersionUID = 1L;

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }

    public CodecException(String message) {
        super(message);
    }
}

package io.jobinfo.store.envelope;

/** Lower-case hexadecimal forms used in names and messages (what {@code java.util.HexFormat} does on Java 17). */
public final class Hex {

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {
    }

    /** The 16 lower-case hex digits of {@code value}, zero-padded: {@code 000000000000007b} for 123. */
    public static String digits(long value) {
        char[] out = new char[16];
        for (int i = 15; i >= 0; i--) {
            out[i] = DIGITS[(int) (value & 0xF)];
            value >>>= 4;
        }
        return new String(out);
    }

    /** Two lower-case hex digits per byte of {@code length} bytes of {@code bytes} from {@code offset}. */
    public static String format(byte[] bytes, int offset, int length) {
        if (offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + offset + " + " + length
                    + ") out of bounds for length " + bytes.length);
        }
        char[] out = new char[length * 2];
        for (int i = 0; i < length; i++) {
            int b = bytes[offset + i] & 0xFF;
            out[2 * i] = DIGITS[b >>> 4];
            out[2 * i + 1] = DIGITS[b & 0xF];
        }
        return new String(out);
    }

    /** Two lower-case hex digits per byte of {@code bytes}. */
    public static String format(byte[] bytes) {
        return format(bytes, 0, bytes.length);
    }

    /**
     * The value of 16 hex digits (either case), as {@link #digits(long)} wrote them.
     *
     * @throws NumberFormatException {@code hex} is not 16 hex digits
     */
    public static long parseLong(String hex) {
        if (hex.length() != 16) {
            throw new NumberFormatException("expected 16 hex digits: '" + hex + "'");
        }
        return Long.parseUnsignedLong(hex, 16);
    }
}

package io.jobinfo.store.codec.kryo;

import io.jobinfo.store.codec.CodecException;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;

/**
 * A Kryo {@link Input} over one whole payload that refuses, before allocating anything, every length read from the
 * bytes that the bytes left cannot hold: a string of N characters needs at least N bytes (UTF-8), an array of N
 * elements at least N times the element's smallest encoding. Kryo 5.6's own {@code Input} allocates the declared
 * size first ({@code new char[charCount]}, {@code new byte[length]}, ...) and has no limit to set, so a payload of a
 * few bytes could ask for gigabytes and end in an {@link OutOfMemoryError}.
 *
 * <p>A refused length throws {@link KryoException} naming what was read, its offset, the claimed size and the bytes
 * left; {@link KryoJobInfoCodec#decode} turns it into a {@link CodecException}. Strings without a length (Kryo's
 * ASCII encoding) are read as they come and are bounded by the payload anyway.
 */
final class BoundedInput extends Input {

    BoundedInput(byte[] payload) {
        super(payload);
    }

    private int remaining() {
        return limit - position;
    }

    /** Checks the length of the UTF-8 string that starts here, if it has one; leaves the position where it was. */
    private void checkString() {
        int start = position;
        if (start >= limit || (buffer[start] & 0x80) == 0) {
            return; // nothing left (Kryo reports the underflow), or ASCII: read as it comes
        }
        int header = readVarIntFlag(true); // 0: null, 1: empty, n: n - 1 characters
        int left = remaining();
        position = start;
        long chars = Integer.toUnsignedLong(header) - 1;
        if (chars > left) {
            throw new KryoException("a string at offset " + start + " claims " + chars + " characters but only "
                    + left + " bytes remain of the " + limit + "-byte payload");
        }
    }

    /** Refuses {@code length} elements of at least {@code elementBytes} bytes each unless they fit the bytes left. */
    private void checkArray(int length, int elementBytes, String what) {
        if (length < 0) {
            throw new KryoException("a " + what + " at offset " + position + " claims a negative length " + length);
        }
        long need = (long) length * elementBytes;
        if (need > remaining()) {
            throw new KryoException("a " + what + " at offset " + position + " claims " + length + " elements ("
                    + need + " bytes or more) but only " + remaining() + " bytes remain of the " + limit
                    + "-byte payload");
        }
    }

    @Override
    public String readString() {
        checkString();
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        checkString();
        return super.readStringBuilder();
    }

    @Override
    public byte[] readBytes(int length) {
        checkArray(length, 1, "byte array");
        return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length) {
        checkArray(length, 4, "int array");
        return super.readInts(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
        checkArray(length, 1, "int array");
        return super.readInts(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
        checkArray(length, 8, "long array");
        return super.readLongs(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
        checkArray(length, 1, "long array");
        return super.readLongs(length, optimizePositive);
    }

    @Override
    public float[] readFloats(int length) {
        checkArray(length, 4, "float array");
        return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) {
        checkArray(length, 8, "double array");
        return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) {
        checkArray(length, 2, "short array");
        return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) {
        checkArray(length, 2, "char array");
        return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) {
        checkArray(length, 1, "boolean array");
        return super.readBooleans(length);
    }
}

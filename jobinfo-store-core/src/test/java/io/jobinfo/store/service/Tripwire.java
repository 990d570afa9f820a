package io.jobinfo.store.service;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A class whose Java deserialization is observable: {@code readObject} counts every instance Java deserialization
 * creates. It stands for a gadget an attacker would place in the job map; its package is this project's own, so an
 * allow-list by project prefix would let it through.
 */
public final class Tripwire implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Instances created by Java deserialization so far in this JVM. */
    public static final AtomicInteger DESERIALIZED = new AtomicInteger();

    private final String note = "placed in the job map by a hostile writer";

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        DESERIALIZED.incrementAndGet();
        in.defaultReadObject();
    }

    @Override
    public String toString() {
        return "Tripwire[" + note + "]";
    }
}

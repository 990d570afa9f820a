package io.jobinfo.store.seatunnel.it;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Map values that tell when they are instantiated from their bytes (issue 23, "nothing is instantiated from a class
 * that the stored bytes name"): deserializing one, in any JVM that has this module's test classes (the members of the
 * drop-in tests do), writes the file its bytes name, suffixed with that JVM's pid. A client puts them into
 * {@code engine_runningJobInfo}; the test then asserts that no such file appeared. They stand for a hostile
 * serialized object, whose class a member has and whose deserialization does harm.
 */
final class Tripwire {

    private Tripwire() {
    }

    /** The files a {@code marker} of either kind wrote: {@code <marker>-<pid>}, in the marker's directory. */
    static boolean tripped(Path marker) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(marker.getParent())) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith(marker.getFileName() + "-"));
        }
    }

    private static void trip(String marker) {
        String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
        try {
            Files.write(Paths.get(marker + "-" + pid), pid.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("tripwire " + marker + " could not write its file", e);
        }
    }

    /** A Java-serialized object (serializer type id -100, its class named by name in its bytes). */
    static final class JavaSerialized implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String marker;

        JavaSerialized(Path marker) {
            this.marker = marker.toString();
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            trip(marker);
        }
    }

    /** A Hazelcast {@code DataSerializable} that names its class by name (serializer type id -2, not identified). */
    public static final class ByClassName implements DataSerializable {
        private String marker;

        public ByClassName() {
        }

        ByClassName(Path marker) {
            this.marker = marker.toString();
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeString(marker);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            marker = in.readString();
            trip(marker);
        }
    }
}

package io.jobinfo.store.lifecycle;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.SerializationConfig;

/**
 * The one Java-deserialization restriction every Hazelcast member and client this project configures runs with (CLI
 * clients, the demo cluster, test clusters, benchmark members; the drop-in's documented {@code hazelcast.yaml} is the
 * same filter in YAML, see docs/operations.md).
 *
 * <p>This library's map values ({@link JobInfoPointer}, {@link InlineJobInfo}, the fencing operations) are
 * {@code IdentifiedDataSerializable} and need no Java deserialization at all. The filter keeps Hazelcast's defaults:
 * its deny-list of known gadget classes, and an allow-list of {@code java}, {@code com.hazelcast.} and arrays (what
 * Hazelcast itself Java-serializes, such as exceptions travelling between members), and allows nothing else. A
 * Java-serialized object of any other class placed in a map is never instantiated: reading it fails with
 * Hazelcast's {@code HazelcastSerializationException} ("Resolving class ... is not allowed"), before the class is
 * loaded, and this library reports it naming the job id.
 *
 * <p>A configuration that already sets a Java serialization filter (for example from an operator's client YAML) is
 * left as it is: the operator's filter restricts too, and replacing it would silently drop what they allowed.
 */
public final class JavaDeserializationFilter {

    private JavaDeserializationFilter() {
    }

    /** A new filter configuration: Hazelcast's default deny- and allow-lists, nothing added. */
    public static JavaSerializationFilterConfig filterConfig() {
        return new JavaSerializationFilterConfig().setDefaultsDisabled(false);
    }

    /** Sets {@link #filterConfig()} on a member's configuration unless it has a filter already; returns it. */
    public static Config restrict(Config config) {
        restrict(config.getSerializationConfig());
        return config;
    }

    /** Sets {@link #filterConfig()} on a client's configuration unless it has a filter already; returns it. */
    public static ClientConfig restrict(ClientConfig config) {
        restrict(config.getSerializationConfig());
        return config;
    }

    private static void restrict(SerializationConfig serialization) {
        if (serialization.getJavaSerializationFilterConfig() == null) {
            serialization.setJavaSerializationFilterConfig(filterConfig());
        }
    }
}

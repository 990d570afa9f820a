package io.jobinfo.store.seatunnel.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * SeaTunnel's own IMap persistence ({@code imap-storage-file}, in {@code seatunnel-engine-server}'s dependencies) as an
 * operator turns it on: a {@code map: engine*: map-store:} block in hazelcast.yaml, the shape of SeaTunnel 2.3.8's
 * deployment docs, on the local file system ({@code fs.defaultFS: file:///}, the docs' choice for one machine). Every
 * {@code engine*} map is written through to append-only WAL files under
 * {@code <namespace>/<clusterName>/<map name>/<region>/}, one region per member start, and loaded back EAGERly when a
 * restarted cluster first touches the map.
 */
public final class ImapPersistence {

    private ImapPersistence() {}

    /** SeaTunnel's map-store factory, the one of its deployment docs. */
    public static final String SEATUNNEL_FACTORY = "org.apache.seatunnel.engine.server.persistence.FileMapStoreFactory";
    /** The drop-in's factory, which wraps SeaTunnel's and persists a new job's reference instead of the job. */
    public static final String DROP_IN_FACTORY = "io.jobinfo.store.seatunnel.dropin.DropInMapStoreFactory";

    /** The hazelcast.yaml lines (under {@code hazelcast:}) for a namespace directory and SeaTunnel cluster name. */
    public static String hazelcastYaml(Path namespace, String clusterName) {
        return hazelcastYaml(namespace, clusterName, SEATUNNEL_FACTORY);
    }

    /**
     * The same lines naming {@code factoryClassName} (SeaTunnel's or the drop-in's: the properties are the same) as the
     * map store's factory.
     */
    public static String hazelcastYaml(Path namespace, String clusterName, String factoryClassName) {
        return """
                map:
                  engine*:
                    map-store:
                      enabled: true
                      initial-mode: EAGER
                      factory-class-name: %s
                      properties:
                        type: hdfs
                        namespace: %s
                        clusterName: %s
                        storage.type: hdfs
                        fs.defaultFS: file:///
                """.formatted(factoryClassName, namespace.toAbsolutePath(), clusterName);
    }

    /** Where the WAL files of {@code mapName} are. */
    public static Path mapDir(Path namespace, String clusterName, String mapName) {
        return namespace.toAbsolutePath().resolve(clusterName).resolve(mapName);
    }

    /**
     * Bytes of every file under {@link #mapDir}: everything ever written for that map (the WAL only appends); 0 if the
     * map has no directory yet.
     *
     * @throws UncheckedIOException if the directory cannot be listed or a file's size read
     */
    public static long walBytes(Path namespace, String clusterName, String mapName) {
        return treeBytes(mapDir(namespace, clusterName, mapName));
    }

    /**
     * Bytes of every file of every {@code engine*} map of {@code clusterName} under {@code namespace}; 0 if there is
     * none yet.
     *
     * @throws UncheckedIOException if a directory cannot be listed or a file's size read
     */
    public static long clusterBytes(Path namespace, String clusterName) {
        return treeBytes(namespace.toAbsolutePath().resolve(clusterName));
    }

    private static long treeBytes(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (java.nio.file.NoSuchFileException gone) {
                    return 0; // removed between the listing and its size: it holds nothing any more
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            throw new UncheckedIOException("cannot sum the file sizes under " + dir,
                    e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
        }
    }
}

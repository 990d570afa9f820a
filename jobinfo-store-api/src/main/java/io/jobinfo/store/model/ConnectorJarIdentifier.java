package io.jobinfo.store.model;

import java.util.Objects;

/**
 * A connector jar a job depends on, as SeaTunnel's {@code ConnectorJarIdentifier} names it.
 *
 * @param connectorJarId id of the jar in the engine's jar store
 * @param type           COMMON_PLUGIN_JAR or CONNECTOR_PLUGIN_JAR
 * @param pluginName     the connector (for example {@code Jdbc})
 * @param storagePath    where the engine keeps the jar
 * @param fileName       the jar's file name
 */
public record ConnectorJarIdentifier(long connectorJarId, String type, String pluginName, String storagePath,
                                     String fileName) {
    public ConnectorJarIdentifier {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(pluginName, "pluginName");
        Objects.requireNonNull(storagePath, "storagePath");
        Objects.requireNonNull(fileName, "fileName");
    }
}

package io.jobinfo.store.demo.model;

import java.util.Objects;

/**
 * A connector jar a job depends on, as SeaTunnel's {@code ConnectorJarIdentifier} names it. Immutable; equal when
 * every field is equal.
 */
public final class ConnectorJarIdentifier {
    private final long connectorJarId;
    private final String type;
    private final String pluginName;
    private final String storagePath;
    private final String fileName;

    /**
     * @param connectorJarId id of the jar in the engine's jar store
     * @param type           COMMON_PLUGIN_JAR or CONNECTOR_PLUGIN_JAR
     * @param pluginName     the connector (for example {@code Jdbc})
     * @param storagePath    where the engine keeps the jar
     * @param fileName       the jar's file name
     * @throws NullPointerException a string field is null (the message names it)
     */
    public ConnectorJarIdentifier(long connectorJarId, String type, String pluginName, String storagePath,
                                  String fileName) {
        this.connectorJarId = connectorJarId;
        this.type = Objects.requireNonNull(type, "type");
        this.pluginName = Objects.requireNonNull(pluginName, "pluginName");
        this.storagePath = Objects.requireNonNull(storagePath, "storagePath");
        this.fileName = Objects.requireNonNull(fileName, "fileName");
    }

    public long connectorJarId() {
        return connectorJarId;
    }

    public String type() {
        return type;
    }

    public String pluginName() {
        return pluginName;
    }

    public String storagePath() {
        return storagePath;
    }

    public String fileName() {
        return fileName;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ConnectorJarIdentifier)) {
            return false;
        }
        ConnectorJarIdentifier c = (ConnectorJarIdentifier) o;
        return connectorJarId == c.connectorJarId && type.equals(c.type) && pluginName.equals(c.pluginName)
                && storagePath.equals(c.storagePath) && fileName.equals(c.fileName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connectorJarId, type, pluginName, storagePath, fileName);
    }

    @Override
    public String toString() {
        return "ConnectorJarIdentifier[connectorJarId=" + connectorJarId + ", type=" + type + ", pluginName="
                + pluginName + ", storagePath=" + storagePath + ", fileName=" + fileName + "]";
    }
}

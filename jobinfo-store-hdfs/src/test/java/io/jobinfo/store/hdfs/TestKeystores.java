package io.jobinfo.store.hdfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/**
 * Keystores for an HTTPS-only MiniDFSCluster, made with the JDK's {@code keytool} (a self-signed localhost
 * certificate; Hadoop's {@code KeyStoreTestUtil} would need Bouncy Castle's old certificate generator), and the
 * {@code ssl-server.xml} / {@code ssl-client.xml} resources Hadoop loads from the class path, written under this
 * module's {@code target/test-classes} with unique names. Passwords are random per run.
 *
 * <p>Failure behaviour: throws {@link IllegalStateException} with keytool's output if keytool fails.
 */
final class TestKeystores {

    private TestKeystores() {
    }

    /** Creates the stores in {@code dir} and points {@code conf} at them. */
    static void setUp(Path dir, Configuration conf) throws Exception {
        String password = UUID.randomUUID().toString();
        Path keystore = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", password, "-keypass", password);
        // one keytool run: the JDK trusts the certificate of a key entry too, so the key store is the trust store
        Path truststore = keystore;

        Path classpathDir = Paths.get(TestKeystores.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String serverResource = "ssl-server-kerberos-" + suffix + ".xml";
        String clientResource = "ssl-client-kerberos-" + suffix + ".xml";
        write(classpathDir.resolve(serverResource), "ssl.server.keystore.location", keystore.toString(),
                "ssl.server.keystore.password", password, "ssl.server.keystore.keypassword", password,
                "ssl.server.keystore.type", "pkcs12", "ssl.server.truststore.location", truststore.toString(),
                "ssl.server.truststore.password", password, "ssl.server.truststore.type", "pkcs12");
        write(classpathDir.resolve(clientResource), "ssl.client.truststore.location", truststore.toString(),
                "ssl.client.truststore.password", password, "ssl.client.truststore.type", "pkcs12");
        classpathDir.resolve(serverResource).toFile().deleteOnExit();
        classpathDir.resolve(clientResource).toFile().deleteOnExit();
        conf.set("dfs.https.server.keystore.resource", serverResource);
        conf.set("dfs.client.https.keystore.resource", clientResource);
        conf.set("hadoop.ssl.server.conf", serverResource);
        conf.set("hadoop.ssl.client.conf", clientResource);
    }

    private static void write(Path file, String... keyValues) throws IOException {
        StringBuilder sb = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        for (int i = 0; i < keyValues.length; i += 2) {
            sb.append("  <property><name>").append(keyValues[i]).append("</name><value>").append(keyValues[i + 1])
                    .append("</value></property>\n");
        }
        sb.append("</configuration>\n");
        Files.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(Arrays.asList(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("keytool " + args[0] + " did not finish within 120 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + out);
        }
    }
}

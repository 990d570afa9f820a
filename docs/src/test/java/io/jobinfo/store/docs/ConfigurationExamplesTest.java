package io.jobinfo.store.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.hazelcast.client.config.YamlClientConfigBuilder;
import com.hazelcast.config.YamlConfigBuilder;
import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.lifecycle.JavaDeserializationFilter;
import io.jobinfo.store.spi.JobInfoStoreFactory;
import io.jobinfo.store.spi.JobInfoStores;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Every ```yaml block of README.md and docs/ is a valid configuration: a {@code jobinfo-storage} section is checked
 * with the real parser and the real backend factories ({@link JobInfoStores#checked}: core and backend keys, no
 * network), a {@code hazelcast-client} document with Hazelcast's own builder. Local files an example names
 * ({@code hdfs_site_path}, {@code core_site_path}, {@code kerberosKeytabFilePath}) do not exist on a build machine:
 * each is replaced by a temporary file, the site files by the ```xml block of the same page that declares that file
 * name ({@code <!-- file: hdfs-site.xml -->}), so Hadoop parses the documented XML too.
 */
class ConfigurationExamplesTest {

    private static final Set<String> LANGUAGES = Set.of("yaml", "json", "bash", "java", "xml");
    private static final Set<String> LOCAL_FILE_KEYS = Set.of("hdfs_site_path", "core_site_path",
            "kerberosKeytabFilePath");
    private static final Pattern XML_FILE_NAME = Pattern.compile("\\A\\s*<!--\\s*file:\\s*([\\w.-]+)\\s*-->");

    @TempDir
    Path temp;

    @Test
    void everyFencedBlockIsOfAKindATestChecks() {
        List<Markdown.Block> all = Markdown.allBlocks();
        assertThat(all).hasSizeGreaterThan(20);
        for (Markdown.Block block : all) {
            assertThat(LANGUAGES).as("%s: every block needs one of the checked languages %s", block, LANGUAGES)
                    .contains(block.language());
        }
    }

    @Test
    void everyYamlBlockIsAValidConfiguration() throws Exception {
        List<Markdown.Block> yaml = Markdown.allBlocks("yaml");
        int sections = 0;
        for (Markdown.Block block : yaml) {
            Object root = load(block);
            Map<?, ?> section = findSection(root);
            if (section != null) {
                Map<String, Object> checked = withLocalFiles(block, section);
                try {
                    JobInfoStores.checked(Map.of(JobInfoStorageConfig.SECTION, checked));
                } catch (InvalidConfigurationException e) {
                    fail(block + " is not a valid jobinfo-storage section: " + e.getMessage());
                }
                sections++;
            } else if (root instanceof Map<?, ?> m && m.containsKey("hazelcast-client")) {
                new YamlClientConfigBuilder(new ByteArrayInputStream(block.text().getBytes(StandardCharsets.UTF_8)))
                        .build();
            } else if (root instanceof Map<?, ?> m && m.containsKey("hazelcast")) {
                new YamlConfigBuilder(new ByteArrayInputStream(block.text().getBytes(StandardCharsets.UTF_8)))
                        .build();
            } else {
                fail(block + " is neither a jobinfo-storage section nor a hazelcast or hazelcast-client"
                        + " configuration");
            }
        }
        assertThat(sections).isGreaterThanOrEqualTo(8);
    }

    @Test
    void theDocumentedJavaDeserializationFilterIsTheOneTheProjectApplies() throws Exception {
        int members = 0;
        int clients = 0;
        for (Markdown.Block block : Markdown.blocks(Docs.ROOT.resolve("docs/operations.md"))) {
            if (!block.language().equals("yaml") || !block.text().contains("java-serialization-filter")) {
                continue;
            }
            ByteArrayInputStream in = new ByteArrayInputStream(block.text().getBytes(StandardCharsets.UTF_8));
            if (load(block) instanceof Map<?, ?> m && m.containsKey("hazelcast-client")) {
                assertThat(new YamlClientConfigBuilder(in).build().getSerializationConfig()
                        .getJavaSerializationFilterConfig()).as(block.toString())
                        .isEqualTo(JavaDeserializationFilter.filterConfig());
                clients++;
            } else {
                assertThat(new YamlConfigBuilder(in).build().getSerializationConfig()
                        .getJavaSerializationFilterConfig()).as(block.toString())
                        .isEqualTo(JavaDeserializationFilter.filterConfig());
                members++;
            }
        }
        assertThat(members).as("a hazelcast.yaml block").isEqualTo(1);
        assertThat(clients).as("a hazelcast-client block").isEqualTo(1);
    }

    @Test
    void theConfigurationReferenceHasACompleteExampleOfEachDocumentedSetup() throws Exception {
        List<Map<String, Object>> examples = new ArrayList<>();
        for (Markdown.Block block : Markdown.blocks(Docs.ROOT.resolve("docs/configuration.md"))) {
            if (block.language().equals("yaml")) {
                examples.add(withLocalFiles(block, findSection(load(block))));
            }
        }
        assertThat(examples).as("local or NFS").anyMatch(e -> e.get("type").equals("local")
                && plugin(e).containsKey("local.create-directories"));
        assertThat(examples).as("HDFS with Kerberos and an HA nameservice").anyMatch(e -> e.get("type").equals("hdfs")
                && plugin(e).containsKey("kerberosPrincipal") && plugin(e).containsKey("hdfs_site_path")
                && String.valueOf(plugin(e).get("fs.defaultFS")).matches("hdfs://[a-z-]+"));
        assertThat(examples).as("s3a://").anyMatch(e -> e.get("type").equals("hdfs")
                && String.valueOf(e.get("namespace")).startsWith("s3a://"));
        assertThat(examples).as("AWS S3 with SSE-KMS").anyMatch(e -> e.get("type").equals("s3")
                && "kms".equals(plugin(e).get("s3.sse")) && plugin(e).containsKey("s3.sse-kms-key-id")
                && !plugin(e).containsKey("s3.endpoint"));
        assertThat(examples).as("MinIO").anyMatch(e -> e.get("type").equals("s3")
                && plugin(e).containsKey("s3.endpoint"));
    }

    @Test
    void theValidationOfExamplesIsLive() throws Exception {
        // the same check as above must reject a documented example with one misspelt key
        Markdown.Block minio = Markdown.blocks(Docs.ROOT.resolve("docs/configuration.md")).stream()
                .filter(b -> b.language().equals("yaml") && b.text().contains("s3.endpoint")).findFirst().orElseThrow();
        Map<String, Object> section = withLocalFiles(minio, findSection(load(minio)));
        Map<String, Object> plugin = new LinkedHashMap<>(plugin(section));
        plugin.put("s3.buckett", plugin.remove("s3.bucket"));
        section.put("plugin-config", plugin);
        assertThatThrownBy(() -> JobInfoStores.checked(Map.of(JobInfoStorageConfig.SECTION, section)))
                .isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("s3.buckett").hasMessageContaining("s3.bucket: missing");
    }

    @Test
    void everyXmlBlockIsANamedWellFormedSiteFile() throws Exception {
        List<Markdown.Block> xml = Markdown.allBlocks("xml");
        assertThat(xml).isNotEmpty();
        for (Markdown.Block block : xml) {
            assertThat(XML_FILE_NAME.matcher(block.text()).find())
                    .as("%s must start with <!-- file: NAME -->", block).isTrue();
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(block.text().getBytes(StandardCharsets.UTF_8)));
            assertThat(doc.getDocumentElement().getTagName()).as(block.toString()).isEqualTo("configuration");
        }
    }

    /**
     * configuration.md documents every key each backend's factory knows (its {@code describeOptions()}) and every
     * core key, and names no backend key the factories do not know.
     */
    @Test
    void theConfigurationReferenceNamesEveryKeyAndNoOther() {
        String page = Docs.read("docs/configuration.md");
        Map<String, JobInfoStoreFactory> factories = JobInfoStores.factories(getClass().getClassLoader());
        assertThat(factories).containsKeys("local", "hdfs", "s3");
        for (String core : List.of("type", "namespace", "store-id", "cache.max-bytes", "cache.max-entry-bytes",
                "cache.expire-after-access", "cache.max-staleness", "plugin-config")) {
            assertThat(page).as("core key %s", core).contains("| `" + core + "` |");
        }
        Set<String> known = new java.util.HashSet<>();
        for (JobInfoStoreFactory factory : factories.values()) {
            for (String key : factory.describeOptions().keySet()) {
                String shown = key.endsWith(".") ? key + "<key>" : key;
                assertThat(page).as("%s option %s", factory.identifier(), key).contains("| `" + shown + "` |");
                known.add(shown);
            }
        }
        Matcher rows = Pattern.compile("(?m)^\\| `((?:s3|local|hdfs|fs|seatunnel)[^`]*|[a-z]+_site_path|kerberos\\w+)`"
                + " \\|").matcher(page);
        while (rows.find()) {
            assertThat(known).as("configuration.md documents %s, which no factory knows", rows.group(1))
                    .contains(rows.group(1));
        }
    }

    private static Object load(Markdown.Block block) {
        try {
            return new Yaml(new SafeConstructor(new LoaderOptions())).load(block.text());
        } catch (RuntimeException e) {
            throw new AssertionError(block + " is not YAML: " + e.getMessage(), e);
        }
    }

    /** The jobinfo-storage section anywhere in the document, or null. */
    private static Map<?, ?> findSection(Object node) {
        if (node instanceof Map<?, ?> map) {
            if (map.get(JobInfoStorageConfig.SECTION) instanceof Map<?, ?> section) {
                return section;
            }
            for (Object value : map.values()) {
                Map<?, ?> found = findSection(value);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> plugin(Map<String, Object> section) {
        Object p = section.get("plugin-config");
        return p == null ? Map.of() : (Map<String, Object>) p;
    }

    /** A copy of {@code section} whose local-file options point at temporary stand-ins (see the class comment). */
    private Map<String, Object> withLocalFiles(Markdown.Block block, Map<?, ?> section) throws IOException {
        Map<String, Object> copy = new LinkedHashMap<>();
        section.forEach((k, v) -> copy.put(String.valueOf(k), v));
        if (!(copy.get("plugin-config") instanceof Map<?, ?> plugin)) {
            return copy;
        }
        Map<String, Object> options = new LinkedHashMap<>();
        plugin.forEach((k, v) -> options.put(String.valueOf(k), v));
        for (String key : LOCAL_FILE_KEYS) {
            if (options.get(key) == null) {
                continue;
            }
            String fileName = Path.of(String.valueOf(options.get(key))).getFileName().toString();
            Path standIn = Files.createTempFile(temp, "doc-", "-" + fileName);
            if (key.endsWith("_site_path")) {
                String xml = xmlBlockNamed(block.file(), fileName);
                assertThat(xml).as("%s: %s names %s; the page needs an xml block '<!-- file: %s -->'", block, key,
                        fileName, fileName).isNotNull();
                Files.writeString(standIn, xml);
            } else {
                Files.write(standIn, new byte[] {5, 2, 0, 0}); // a keytab's version bytes; never read as one
            }
            options.put(key, standIn.toString());
        }
        copy.put("plugin-config", options);
        return copy;
    }

    private static String xmlBlockNamed(Path page, String fileName) {
        for (Markdown.Block b : Markdown.blocks(page)) {
            Matcher m = XML_FILE_NAME.matcher(b.text());
            if (b.language().equals("xml") && m.find() && m.group(1).equals(fileName)) {
                return b.text();
            }
        }
        return null;
    }
}

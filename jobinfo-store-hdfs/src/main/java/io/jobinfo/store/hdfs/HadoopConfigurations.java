package io.jobinfo.store.hdfs;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import java.io.File;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Turns a {@code jobinfo-storage} section of type {@code hdfs} into a Hadoop {@link Configuration}, with the keys
 * users of SeaTunnel's {@code checkpoint.storage} (type {@code hdfs}) already know: {@code fs.defaultFS},
 * {@code hdfs_site_path}, {@code kerberosPrincipal}, {@code kerberosKeytabFilePath} and the pass-through prefix
 * {@code seatunnel.hadoop.}. Public so that other tools (the CLI) build exactly the configuration the store uses.
 *
 * <p>Precedence, lowest first: Hadoop defaults and {@code core-site.xml}/{@code hdfs-site.xml} found on the class
 * path; {@code core_site_path}; {@code hdfs_site_path}; {@code fs.defaultFS}; {@code fs.s3a.*} keys; keys of the
 * {@code seatunnel.hadoop.} prefix (stripped). On {@code s3a://} the two settings write-once needs,
 * {@code fs.s3a.create.conditional.enabled} and {@code fs.s3a.create.performance}, are set to {@code true}. The
 * HDFS client's close retry pacing is changed unless the user sets it: see {@link HdfsClientDefaults}.
 *
 * <p>Failure behaviour: {@link #problems} never throws and lists every problem at once, each naming its key and
 * saying what to do; {@link #build} throws {@link InvalidConfigurationException} with that same list. Neither touches
 * the backend (only local site and keytab files are read), neither modifies the caller's maps, and no message
 * contains a configuration value that could be a credential.
 */
public final class HadoopConfigurations {

    /** URI of the default file system. */
    public static final String FS_DEFAULT_FS = "fs.defaultFS";
    /** Local path of a core-site.xml to load. */
    public static final String CORE_SITE_PATH = "core_site_path";
    /** Local path of an hdfs-site.xml to load. */
    public static final String HDFS_SITE_PATH = "hdfs_site_path";
    /** Kerberos principal to log in as (with {@link #KERBEROS_KEYTAB}). */
    public static final String KERBEROS_PRINCIPAL = "kerberosPrincipal";
    /** Local path of the keytab of {@link #KERBEROS_PRINCIPAL}. */
    public static final String KERBEROS_KEYTAB = "kerberosKeytabFilePath";
    /** Pass-through prefix: {@code seatunnel.hadoop.X=v} sets Hadoop key {@code X=v}. */
    public static final String HADOOP_PREFIX = "seatunnel.hadoop.";
    /** Pass-through prefix kept as is, as SeaTunnel's S3 checkpoint storage does: {@code fs.s3a.endpoint=...}. */
    public static final String S3A_PREFIX = "fs.s3a.";
    /** Create the namespace directory at start-up when missing (default true). */
    public static final String CREATE_DIRECTORIES = "hdfs.create-directories";

    static final String S3A_CONDITIONAL = "fs.s3a.create.conditional.enabled";
    static final String S3A_CREATE_PERFORMANCE = "fs.s3a.create.performance";

    private static final String PLUGIN = JobInfoStorageConfig.SECTION + ".plugin-config.";
    private static final String NAMESPACE = JobInfoStorageConfig.SECTION + ".namespace";

    private HadoopConfigurations() {
    }

    /** Every plugin-config key of the {@code hdfs} store with its default and meaning; prefixes end with a dot. */
    public static Map<String, String> describeOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put(FS_DEFAULT_FS, "URI of the file system holding the namespace: hdfs://namenode:8020, hdfs://<nameservice>"
                + " (HA, with hdfs_site_path), viewfs://<cluster>, file:///, s3a://<bucket>. No default: required"
                + " unless the namespace is a full URI or core_site_path sets it");
        o.put(CORE_SITE_PATH, "local path of a core-site.xml to load (default: none; a core-site.xml on the class path"
                + " is always read)");
        o.put(HDFS_SITE_PATH, "local path of an hdfs-site.xml to load, for example the client settings of an HA"
                + " nameservice (default: none)");
        o.put(KERBEROS_PRINCIPAL, "Kerberos principal the store logs in as, such as seatunnel/host@REALM; needs"
                + " kerberosKeytabFilePath. Each store logs in on its own (default: none, the process's Hadoop user)");
        o.put(KERBEROS_KEYTAB, "local path of the keytab of kerberosPrincipal (default: none)");
        o.put(HADOOP_PREFIX, "prefix: seatunnel.hadoop.<key>=<value> sets the Hadoop key <key>, overriding every"
                + " other source; for example seatunnel.hadoop.dfs.replication=3 or"
                + " seatunnel.hadoop.dfs.client.socket-timeout=20000");
        o.put(S3A_PREFIX, "prefix: fs.s3a.* keys are passed to Hadoop unchanged, as in SeaTunnel's S3 checkpoint"
                + " storage, for example fs.s3a.endpoint or fs.s3a.aws.credentials.provider");
        o.put(CREATE_DIRECTORIES, "true (default): create the namespace directory at start-up when it is missing;"
                + " false: refuse to start without it");
        return Collections.unmodifiableMap(o);
    }

    /**
     * Every problem with {@code config} as an {@code hdfs} store, each naming the key and saying what to do; empty if
     * none. Reads local files (site files, keytab) but never contacts the file system.
     */
    public static List<String> problems(JobInfoStorageConfig config) {
        List<String> problems = new ArrayList<>();
        Map<String, String> options = config.pluginConfig();
        Path namespace = null;
        try {
            namespace = new Path(config.namespace());
        } catch (IllegalArgumentException e) {
            problems.add(NAMESPACE + ": '" + config.namespace() + "' is not a Hadoop path (" + e.getMessage()
                    + "); write an absolute path such as /seatunnel/jobinfo or a URI such as hdfs://nn:8020/jobinfo");
        }
        if (namespace != null && namespace.toUri().getScheme() == null && !namespace.isAbsolute()) {
            problems.add(NAMESPACE + ": '" + config.namespace() + "' is relative; Hadoop would resolve it against"
                    + " each user's home directory. Write an absolute path such as /seatunnel/jobinfo");
        }
        String defaultFs = options.get(FS_DEFAULT_FS);
        if (defaultFs != null) {
            if (defaultFs.trim().isEmpty()) {
                problems.add(PLUGIN + FS_DEFAULT_FS + ": empty; set a URI such as hdfs://namenode:8020 or remove it");
            } else {
                try {
                    URI uri = new URI(defaultFs.trim());
                    if (uri.getScheme() == null) {
                        problems.add(PLUGIN + FS_DEFAULT_FS + ": '" + defaultFs + "' has no scheme; write a URI such"
                                + " as hdfs://namenode:8020, hdfs://<nameservice> or file:///");
                    }
                } catch (URISyntaxException e) {
                    problems.add(PLUGIN + FS_DEFAULT_FS + ": not a valid URI (" + e.getReason() + " at index "
                            + e.getIndex() + "); write a URI such as hdfs://namenode:8020");
                }
            }
        }
        checkReadableFile(options, CORE_SITE_PATH, "core-site.xml", problems);
        checkReadableFile(options, HDFS_SITE_PATH, "hdfs-site.xml", problems);
        String principal = options.get(KERBEROS_PRINCIPAL);
        String keytab = options.get(KERBEROS_KEYTAB);
        if (principal != null && principal.trim().isEmpty()) {
            problems.add(PLUGIN + KERBEROS_PRINCIPAL + ": empty; set the principal (such as seatunnel/host@REALM) or"
                    + " remove both Kerberos keys");
        }
        if (principal != null && keytab == null) {
            problems.add(PLUGIN + KERBEROS_KEYTAB + ": missing; " + KERBEROS_PRINCIPAL + " is set, so also set the"
                    + " path of its keytab");
        }
        if (keytab != null && principal == null) {
            problems.add(PLUGIN + KERBEROS_PRINCIPAL + ": missing; " + KERBEROS_KEYTAB + " is set, so also set the"
                    + " principal to log in as");
        }
        checkReadableFile(options, KERBEROS_KEYTAB, "keytab", problems);
        String mkdirs = options.get(CREATE_DIRECTORIES);
        if (mkdirs != null && !mkdirs.equalsIgnoreCase("true") && !mkdirs.equalsIgnoreCase("false")) {
            problems.add(PLUGIN + CREATE_DIRECTORIES + ": '" + mkdirs + "' must be true or false");
        }
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(HADOOP_PREFIX) && e.getKey().length() == HADOOP_PREFIX.length()) {
                problems.add(PLUGIN + e.getKey() + ": names no Hadoop key; write " + HADOOP_PREFIX + "<hadoop key>");
            }
        }
        if (!problems.isEmpty()) {
            return problems; // the rest needs a sound configuration
        }

        Configuration conf;
        try {
            conf = assemble(config);
            conf.size(); // parses the site files now, so that a broken XML is reported at start-up
        } catch (RuntimeException e) {
            problems.add(PLUGIN + CORE_SITE_PATH + " / " + HDFS_SITE_PATH + ": a site file cannot be parsed ("
                    + rootMessage(e) + "); fix the XML");
            return problems;
        }
        URI fsUri = fileSystemUri(config, conf);
        String scheme = fsUri.getScheme();
        boolean fsGiven = namespace != null && namespace.toUri().getScheme() != null || defaultFs != null
                || conf.get(FS_DEFAULT_FS) != null && !"file:///".equals(conf.get(FS_DEFAULT_FS));
        if (!fsGiven) {
            problems.add(PLUGIN + FS_DEFAULT_FS + ": missing; set the file system URI (such as hdfs://namenode:8020,"
                    + " or file:/// for a local directory), write the namespace as a full URI, or load a"
                    + " core_site_path that sets it");
        } else if (scheme == null) {
            problems.add(PLUGIN + FS_DEFAULT_FS + ": the file system URI has no scheme; write hdfs://..., file:///,"
                    + " viewfs://... or s3a://...");
        } else if ("s3a".equalsIgnoreCase(scheme) && !HadoopVersion.hasS3aConditionalCreate()) {
            problems.add(s3aNeedsNewerHadoop());
        } else {
            try {
                FileSystem.getFileSystemClass(scheme, conf);
            } catch (Exception | LinkageError e) {
                problems.add(PLUGIN + FS_DEFAULT_FS + ": no Hadoop FileSystem serves the scheme '" + scheme + "' ("
                        + rootMessage(e) + "); use hdfs, file, viewfs or s3a, or add the jar of that FileSystem to"
                        + " the class path");
            }
            if ("s3a".equalsIgnoreCase(scheme)) {
                for (String key : Arrays.asList(S3A_CONDITIONAL, S3A_CREATE_PERFORMANCE)) {
                    if (explicitlyFalse(options, key)) {
                        problems.add(PLUGIN + explicitKey(options, key) + ": must not be false on s3a://; the store"
                                + " creates blobs with a conditional PUT (If-None-Match) and needs it. Remove the key");
                    }
                }
            }
        }
        return problems;
    }

    /**
     * The Hadoop configuration of an {@code hdfs} store, exactly as the store uses it (a new object on each call).
     *
     * @throws InvalidConfigurationException listing every problem of {@link #problems}
     */
    public static Configuration build(JobInfoStorageConfig config) {
        List<String> problems = problems(config);
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
        Configuration conf = assemble(config);
        HdfsClientDefaults.apply(conf); // close without Hadoop's 400 ms first retry; not where the user set the keys
        if ("s3a".equalsIgnoreCase(fileSystemUri(config, conf).getScheme())) {
            conf.setBoolean(S3A_CONDITIONAL, true);
            conf.setBoolean(S3A_CREATE_PERFORMANCE, true);
        }
        if (config.option(KERBEROS_PRINCIPAL) != null) {
            conf.set(CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION, "kerberos");
        }
        return conf;
    }

    /**
     * The URI of the file system holding the namespace: the namespace itself when it is a full URI, else
     * {@code fs.defaultFS} of {@code conf}.
     */
    public static URI fileSystemUri(JobInfoStorageConfig config, Configuration conf) {
        URI ns = new Path(config.namespace()).toUri();
        if (ns.getScheme() != null) {
            return ns;
        }
        return FileSystem.getDefaultUri(conf);
    }

    private static Configuration assemble(JobInfoStorageConfig config) {
        Map<String, String> options = config.pluginConfig();
        Configuration conf = new Configuration(); // Hadoop defaults and site files on the class path
        if (options.get(CORE_SITE_PATH) != null) {
            conf.addResource(new Path(new File(options.get(CORE_SITE_PATH)).getAbsoluteFile().toURI()));
        }
        if (options.get(HDFS_SITE_PATH) != null) {
            conf.addResource(new Path(new File(options.get(HDFS_SITE_PATH)).getAbsoluteFile().toURI()));
        }
        if (options.get(FS_DEFAULT_FS) != null) {
            conf.set(FS_DEFAULT_FS, options.get(FS_DEFAULT_FS).trim());
        }
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(S3A_PREFIX)) {
                conf.set(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(HADOOP_PREFIX) && e.getKey().length() > HADOOP_PREFIX.length()) {
                conf.set(e.getKey().substring(HADOOP_PREFIX.length()), e.getValue());
            }
        }
        return conf;
    }

    private static void checkReadableFile(Map<String, String> options, String key, String what,
                                          List<String> problems) {
        String value = options.get(key);
        if (value == null) {
            return;
        }
        if (value.trim().isEmpty()) {
            problems.add(PLUGIN + key + ": empty; set the path of the " + what + " file or remove the key");
            return;
        }
        File f = new File(value);
        if (!f.isFile()) {
            problems.add(PLUGIN + key + ": the " + what + " file '" + value + "' does not exist or is not a file;"
                    + " fix the path");
        } else if (!f.canRead()) {
            problems.add(PLUGIN + key + ": the " + what + " file '" + value + "' is not readable by this process;"
                    + " fix its permissions");
        }
    }

    private static boolean explicitlyFalse(Map<String, String> options, String hadoopKey) {
        String key = explicitKey(options, hadoopKey);
        return key != null && "false".equals(options.get(key).trim().toLowerCase(Locale.ROOT));
    }

    private static String explicitKey(Map<String, String> options, String hadoopKey) {
        if (options.containsKey(HADOOP_PREFIX + hadoopKey)) {
            return HADOOP_PREFIX + hadoopKey;
        }
        return options.containsKey(hadoopKey) ? hadoopKey : null;
    }

    /** Why {@code s3a://} is refused on this process's Hadoop, and what to use instead. */
    static String s3aNeedsNewerHadoop() {
        return PLUGIN + FS_DEFAULT_FS + ": s3a:// needs Hadoop " + HadoopVersion.S3A_CONDITIONAL_CREATE_SINCE
                + " or later (S3A conditional create, If-None-Match: *, which write-once blobs rest on), but this"
                + " process runs Hadoop " + HadoopVersion.current() + ". Put a newer Hadoop with its hadoop-aws on"
                + " the class path, or use the store type s3 (native AWS SDK, no Hadoop needed) for this bucket";
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return root.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}

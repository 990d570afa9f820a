package io.jobinfo.store.hdfs;

import io.jobinfo.store.config.InvalidConfigurationException;
import io.jobinfo.store.config.JobInfoStorageConfig;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import io.jobinfo.store.spi.JobInfoStoreFactory;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Type {@code hdfs}: a directory of any Hadoop file system ({@code hdfs://}, {@code file://}, {@code viewfs://},
 * {@code s3a://}). The namespace is an absolute path under {@code fs.defaultFS}, or a full URI. The plugin-config keys
 * are those of SeaTunnel's HDFS checkpoint storage; see {@link HadoopConfigurations}.
 *
 * <p>Failure behaviour: {@link #validate} lists every problem at once without touching the file system;
 * {@link #create} throws {@link InvalidConfigurationException} for an invalid configuration, and
 * {@link JobInfoStoreException} when the Kerberos login fails or the namespace cannot be reached, created or written
 * (so a wrong address or credential fails at start-up, not at the first job).
 *
 * <p>Kerberos: with {@code kerberosPrincipal} and {@code kerberosKeytabFilePath} each store logs in on its own
 * ({@link UserGroupInformation#loginUserFromKeytabAndReturnUGI}) and acts as that user; the process's login user is
 * not changed. Hadoop keeps whether security is enabled JVM-wide, so the first Kerberos store switches the process's
 * Hadoop security setting to Kerberos if it was off.
 */
public final class HdfsJobInfoStoreFactory implements JobInfoStoreFactory {

    @Override
    public String identifier() {
        return "hdfs";
    }

    @Override
    public Map<String, String> describeOptions() {
        return HadoopConfigurations.describeOptions();
    }

    @Override
    public List<String> validate(JobInfoStorageConfig config) {
        return HadoopConfigurations.problems(config);
    }

    @Override
    public JobInfoStore create(JobInfoStorageConfig config) throws JobInfoStoreException {
        Configuration conf = HadoopConfigurations.build(config);
        String principal = config.option(HadoopConfigurations.KERBEROS_PRINCIPAL);
        String keytab = config.option(HadoopConfigurations.KERBEROS_KEYTAB);
        UserGroupInformation ugi;
        boolean keytabLogin = principal != null;
        try {
            if (keytabLogin) {
                synchronized (UserGroupInformation.class) {
                    if (!UserGroupInformation.isSecurityEnabled()) {
                        UserGroupInformation.setConfiguration(conf);
                    }
                }
                ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal.trim(), keytab);
            } else {
                ugi = UserGroupInformation.getCurrentUser();
            }
        } catch (IOException | RuntimeException e) {
            throw new JobInfoStoreException("Kerberos login failed for principal '" + principal + "' with keytab '"
                    + keytab + "' (" + HadoopConfigurations.rootMessage(e) + "); check "
                    + HadoopConfigurations.KERBEROS_PRINCIPAL + ", " + HadoopConfigurations.KERBEROS_KEYTAB
                    + " and the krb5.conf of this machine", null,
                    HdfsJobInfoStore.namespaceLocation(conf, config.namespace()), e);
        }
        boolean mkdirs = !"false".equalsIgnoreCase(config.option(HadoopConfigurations.CREATE_DIRECTORIES));
        return HdfsJobInfoStore.open(conf, config.namespace(), config.storeId(), mkdirs, ugi, keytabLogin);
    }
}

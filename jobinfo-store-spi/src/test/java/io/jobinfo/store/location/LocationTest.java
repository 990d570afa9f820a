package io.jobinfo.store.location;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jobinfo.store.spi.JobInfoStoreException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocationTest {

    @Test
    void theBackendsFormsKeepTheirStringAndParts() {
        Location local = Location.of("file:///var/lib/jobinfo/000000000000007b.jobinfo");
        assertThat(local.scheme()).isEqualTo("file");
        assertThat(local.path()).isEqualTo("/var/lib/jobinfo/000000000000007b.jobinfo");
        assertThat(local.fileName()).isEqualTo("000000000000007b.jobinfo");
        assertThat(local.parent()).hasToString("file:///var/lib/jobinfo/");

        Location hdfs = Location.of("hdfs://jobinfo-ns/seatunnel/jobinfo/0000000000000008.jobinfo");
        assertThat(hdfs.scheme()).isEqualTo("hdfs");
        assertThat(hdfs.path()).isEqualTo("/seatunnel/jobinfo/0000000000000008.jobinfo");
        assertThat(hdfs.parent()).hasToString("hdfs://jobinfo-ns/seatunnel/jobinfo/");

        Location upload = Location.of("s3://bucket/pre/0000000000000009.jobinfo?uploadId=a%2Bb");
        assertThat(upload.scheme()).isEqualTo("s3");
        assertThat(upload.path()).isEqualTo("/pre/0000000000000009.jobinfo");
        assertThat(upload.fileName()).isEqualTo("0000000000000009.jobinfo");
        assertThat(upload.parent()).hasToString("s3://bucket/pre/");
        assertThat(Location.of("s3://bucket/0000000000000009.jobinfo").parent()).hasToString("s3://bucket/");
    }

    @Test
    void toStringIsTheGivenUriExactlyAndRoundTrips(@TempDir Path dir) {
        for (String uri : List.of("file:///tmp/a%20b/0000000000000001.jobinfo", dir.toUri().toString(),
                dir.resolve("ä ö").toUri().toString(), "s3://b/p%C3%A4/x.jobinfo?uploadId=u%2F1", "mem:blob",
                "S3://Bucket/X")) {
            Location location = Location.of(uri);
            assertThat(location.toString()).isEqualTo(uri);
            assertThat(Location.of(location.toString())).isEqualTo(location);
        }
        assertThat(Location.of("file:///tmp/a%20b/x%3Ay.jobinfo").fileName()).isEqualTo("x:y.jobinfo");
        assertThat(Location.of("file:///tmp/a%20b/x.jobinfo").path()).isEqualTo("/tmp/a b/x.jobinfo");
        assertThat(Location.of("file:///tmp/a%2Fb").fileName()).isEqualTo("a/b");
    }

    @Test
    void equalByTheUriString() {
        Location a = Location.of("s3://bucket/p/0000000000000001.jobinfo");
        assertThat(a).isEqualTo(Location.of("s3://bucket/p/0000000000000001.jobinfo"))
                .hasSameHashCodeAs(Location.of("s3://bucket/p/0000000000000001.jobinfo"))
                .isNotEqualTo(Location.of("s3://bucket/p/0000000000000002.jobinfo"))
                // the same resource spelt otherwise is another location: nothing is normalised
                .isNotEqualTo(Location.of("s3://bucket/p/./0000000000000001.jobinfo"))
                .isNotEqualTo(Location.of("S3://bucket/p/0000000000000001.jobinfo"))
                .isNotEqualTo("s3://bucket/p/0000000000000001.jobinfo");
    }

    @Test
    void aBadUriIsRefusedNamingIt() {
        assertThatThrownBy(() -> Location.of(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a location needs a URI, got null");
        assertThatThrownBy(() -> Location.of("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a location needs a URI, got ''");
        assertThatThrownBy(() -> Location.of("file:///a b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a location: 'file:///a b' is not a URI (Illegal character in path at index 9)");
        assertThatThrownBy(() -> Location.of("/var/lib/jobinfo/x.jobinfo")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a location: '/var/lib/jobinfo/x.jobinfo' names no scheme (such as file:, hdfs:, s3:)");
        assertThatThrownBy(() -> Location.of("forged")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'forged' names no scheme");
        assertThatThrownBy(() -> Location.of("s3://bucket/%zz")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a location: 's3://bucket/%zz' is not a URI (");
    }

    @Test
    void aNameUnderASchemeIsQuotedOnlyWhereAUriNeedsIt() {
        assertThat(Location.of("map", "engine_runningJobInfo")).hasToString("map:engine_runningJobInfo")
                .isEqualTo(Location.of("map:engine_runningJobInfo"));
        assertThat(Location.of("inline", "__st.jobinfo-history")).hasToString("inline:__st.jobinfo-history");
        assertThat(Location.of("map", "a b%c")).hasToString("map:a%20b%25c");
        assertThat(Location.of("map", "x").scheme()).isEqualTo("map");
        assertThatThrownBy(() -> Location.of("map", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a location needs a scheme and a name, got map and ''");
        assertThatThrownBy(() -> Location.of("1 x", "m")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a location: the scheme '1 x' and the name 'm' make no URI (");
    }

    @Test
    void resolveNamesAnEntryOfTheDirectory() {
        Location dir = Location.of("s3://bucket/prefix/");
        assertThat(dir.resolve("0000000000000001.jobinfo")).hasToString("s3://bucket/prefix/0000000000000001.jobinfo");
        assertThat(Location.of("s3://bucket/prefix").resolve("0000000000000001.jobinfo"))
                .isEqualTo(dir.resolve("0000000000000001.jobinfo"));
        assertThat(Location.of("s3://bucket/").resolve(".tmp-0000000000000001-x"))
                .hasToString("s3://bucket/.tmp-0000000000000001-x");
        assertThat(Location.of("s3://bucket").resolve("a")).hasToString("s3://bucket/a");

        Location odd = dir.resolve("a b%ä:c");
        assertThat(odd).hasToString("s3://bucket/prefix/a%20b%25%C3%A4:c");
        assertThat(odd.fileName()).isEqualTo("a b%ä:c");
        assertThat(odd.parent()).isEqualTo(dir);
        assertThat(dir.resolve("x.jobinfo").parent()).isEqualTo(dir);
    }

    @Test
    void resolveRefusesWhatIsNotTheNameOfAnEntryNamingIt() {
        Location dir = Location.of("file:///var/lib/jobinfo/");
        for (String bad : List.of("", ".", "..", "../x", "a/b", "/", "x/..", "a/")) {
            assertThatThrownBy(() -> dir.resolve(bad)).as("'%s'", bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("not the name of an entry of file:///var/lib/jobinfo/: '" + bad + "' (a name is not"
                            + " empty, not '.' or '..', and holds no '/')");
        }
        // without a '/', only '.' and '..' step out of the directory: other names with dots are entries of it
        assertThat(dir.resolve("a..b")).hasToString("file:///var/lib/jobinfo/a..b");
        assertThat(dir.resolve("...").parent()).isEqualTo(dir);
        assertThat(dir.resolve(".tmp-0000000000000001-x").fileName()).isEqualTo(".tmp-0000000000000001-x");
        assertThatThrownBy(() -> dir.resolve(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(": null (");
        assertThatThrownBy(() -> Location.of("s3://b/k?uploadId=1").resolve("x"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'s3://b/k?uploadId=1'");
        assertThatThrownBy(() -> Location.of("mem:blob").resolve("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'mem:blob'");
    }

    @Test
    void fileNameAndParentOfADirectory() {
        Location dir = Location.of("file:///var/lib/jobinfo/");
        assertThat(dir.fileName()).isEmpty();
        assertThat(Location.of("mem:blob").fileName()).isEmpty();
        assertThat(Location.of("mem:blob").path()).isEmpty();
        for (String noEntry : List.of("file:///var/lib/jobinfo/", "s3://bucket", "s3://bucket/", "mem:blob")) {
            assertThatThrownBy(() -> Location.of(noEntry).parent()).as(noEntry)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("the location '" + noEntry + "' names no entry of a directory");
        }
    }

    @Test
    void serializesAsItsUriAndIsCheckedAgain() throws Exception {
        Location location = Location.of("hdfs://ns/jobinfo/0000000000000008.jobinfo");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new JobInfoStoreException("failed", 8L, location));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            JobInfoStoreException read = (JobInfoStoreException) in.readObject();
            assertThat(read.location()).isEqualTo(location);
            assertThat(read.location().fileName()).isEqualTo("0000000000000008.jobinfo");
            assertThat(read.getMessage()).isEqualTo("failed [jobId=8, location=" + location + "]");
        }
    }
}

package io.jobinfo.store.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every ```json block parses. The IAM policy of operations.md grants exactly the S3 actions the {@code s3} store's
 * code calls (found by scanning its sources for S3 client calls, so a new call without a policy update fails here),
 * plus the two KMS actions of SSE-KMS; the lifecycle rule aborts incomplete uploads under the same prefix and expires
 * nothing.
 */
class JsonExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** S3 client call of the store -> the IAM action that authorises it; null: no request to authorise. */
    private static final Map<String, String> ACTION_OF_CALL = new HashMap<>();

    static {
        for (String call : List.of("putObject", "createMultipartUpload", "uploadPart", "completeMultipartUpload")) {
            ACTION_OF_CALL.put(call, "s3:PutObject");
        }
        ACTION_OF_CALL.put("getObject", "s3:GetObject");
        ACTION_OF_CALL.put("getObjectAsBytes", "s3:GetObject"); // the race probe's verdict record
        ACTION_OF_CALL.put("headObject", "s3:GetObject");
        ACTION_OF_CALL.put("deleteObject", "s3:DeleteObject");
        ACTION_OF_CALL.put("abortMultipartUpload", "s3:AbortMultipartUpload");
        ACTION_OF_CALL.put("headBucket", "s3:ListBucket");
        ACTION_OF_CALL.put("listObjectsV2", "s3:ListBucket");
        ACTION_OF_CALL.put("listObjectsV2Paginator", "s3:ListBucket");
        ACTION_OF_CALL.put("listMultipartUploads", "s3:ListBucketMultipartUploads");
        ACTION_OF_CALL.put("listMultipartUploadsPaginator", "s3:ListBucketMultipartUploads");
        ACTION_OF_CALL.put("close", null);
        ACTION_OF_CALL.put("serviceClientConfiguration", null);
    }

    @Test
    void everyJsonBlockParses() {
        List<Markdown.Block> blocks = Markdown.allBlocks("json");
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(2);
        for (Markdown.Block block : blocks) {
            try {
                JSON.readTree(block.text());
            } catch (IOException e) {
                fail(block + " is not JSON: " + e.getMessage());
            }
        }
    }

    @Test
    void theIamPolicyGrantsWhatTheS3StoreCallsAndNothingElse() throws Exception {
        JsonNode policy = only("Statement");
        Set<String> required = requiredS3Actions();
        assertThat(required).contains("s3:PutObject", "s3:GetObject", "s3:DeleteObject", "s3:ListBucket",
                "s3:ListBucketMultipartUploads", "s3:AbortMultipartUpload");

        Map<String, Set<String>> resourcesOfAction = new TreeMap<>();
        for (JsonNode statement : policy.get("Statement")) {
            assertThat(statement.get("Effect").asText()).isEqualTo("Allow");
            for (JsonNode action : statement.get("Action")) {
                for (JsonNode resource : iterable(statement.get("Resource"))) {
                    resourcesOfAction.computeIfAbsent(action.asText(), a -> new TreeSet<>()).add(resource.asText());
                }
            }
        }
        Set<String> granted = resourcesOfAction.keySet();
        Set<String> expected = new TreeSet<>(required);
        expected.addAll(Set.of("kms:GenerateDataKey", "kms:Decrypt"));
        assertThat(granted).as("least privilege: exactly the actions the store needs").isEqualTo(expected);

        String objects = objectResource(resourcesOfAction);
        for (String objectAction : List.of("s3:PutObject", "s3:GetObject", "s3:DeleteObject",
                "s3:AbortMultipartUpload")) {
            assertThat(resourcesOfAction.get(objectAction)).as(objectAction).containsExactly(objects);
        }
        String bucketArn = objects.substring(0, objects.indexOf('/'));
        assertThat(resourcesOfAction.get("s3:ListBucket")).containsExactly(bucketArn);
        assertThat(resourcesOfAction.get("s3:ListBucketMultipartUploads")).containsExactly(bucketArn);

        // the policy is for the AWS example of configuration.md: its bucket and namespace
        String bucket = bucketArn.substring("arn:aws:s3:::".length());
        String prefix = objects.substring(bucketArn.length() + 1, objects.length() - 1);
        String aws = Docs.read("docs/configuration.md");
        assertThat(aws).contains("s3.bucket: " + bucket).contains("namespace: " + prefix.replaceAll("/$", ""));
    }

    @Test
    void theLifecycleRuleAbortsIncompleteUploadsOfTheNamespaceAndExpiresNothing() throws Exception {
        JsonNode lifecycle = only("Rules");
        JsonNode policy = only("Statement");
        String objects = null;
        for (JsonNode statement : policy.get("Statement")) {
            for (JsonNode action : statement.get("Action")) {
                if (action.asText().equals("s3:PutObject")) {
                    objects = statement.get("Resource").asText();
                }
            }
        }
        assertThat(objects).isNotNull();
        String prefix = objects.substring(objects.indexOf('/') + 1, objects.length() - 1);
        assertThat(lifecycle.get("Rules")).hasSize(1);
        JsonNode rule = lifecycle.get("Rules").get(0);
        assertThat(rule.get("Status").asText()).isEqualTo("Enabled");
        assertThat(rule.get("Filter").get("Prefix").asText()).isEqualTo(prefix);
        assertThat(rule.get("AbortIncompleteMultipartUpload").get("DaysAfterInitiation").asInt()).isPositive();
        assertThat(rule.has("Expiration")).as("a blob must live as long as its job").isFalse();
        assertThat(rule.has("NoncurrentVersionExpiration")).isFalse();
    }

    private static JsonNode only(String topLevelField) throws IOException {
        JsonNode found = null;
        for (Markdown.Block block : Markdown.blocks(Docs.ROOT.resolve("docs/operations.md"))) {
            if (block.language().equals("json")) {
                JsonNode node = JSON.readTree(block.text());
                if (node.has(topLevelField)) {
                    assertThat(found).as("one document with %s", topLevelField).isNull();
                    found = node;
                }
            }
        }
        assertThat(found).as("operations.md has a JSON document with %s", topLevelField).isNotNull();
        return found;
    }

    private static String objectResource(Map<String, Set<String>> resourcesOfAction) {
        Set<String> r = resourcesOfAction.get("s3:PutObject");
        assertThat(r).hasSize(1);
        String objects = r.iterator().next();
        assertThat(objects).startsWith("arn:aws:s3:::").endsWith("/*");
        return objects;
    }

    private static Iterable<JsonNode> iterable(JsonNode node) {
        return node.isArray() ? node : List.of(node);
    }

    /** The IAM actions behind every S3 client call in the {@code s3} store's main sources. */
    private static Set<String> requiredS3Actions() throws IOException {
        Path sources = Docs.ROOT.resolve("jobinfo-store-s3/src/main/java");
        // the store's clients: s3 (writes and the rest) and reads (reads, retried on a stale pooled connection)
        Pattern call = Pattern.compile("\\b(?:s3|reads)\\s*\\.\\s*(\\w+)\\s*\\(");
        Set<String> actions = new TreeSet<>();
        Set<String> calls = new TreeSet<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = call.matcher(Files.readString(file));
                while (m.find()) {
                    calls.add(m.group(1));
                }
            }
        }
        assertThat(calls).as("S3 client calls found in %s", sources).isNotEmpty();
        for (String c : calls) {
            assertThat(ACTION_OF_CALL).as("the s3 store calls s3.%s(...): add its IAM action to this test and to the"
                    + " policy in docs/operations.md", c).containsKey(c);
            if (ACTION_OF_CALL.get(c) != null) {
                actions.add(ACTION_OF_CALL.get(c));
            }
        }
        return actions;
    }
}

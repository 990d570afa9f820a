package io.jobinfo.store.cli.ops;

import io.jobinfo.store.codec.CodecException;
import io.jobinfo.store.codec.kryo.KryoJobInfoCodec;
import io.jobinfo.store.demo.model.JobImmutableInformationSerializer;
import io.jobinfo.store.envelope.BlobEnvelope;
import io.jobinfo.store.envelope.EnvelopeFormatException;
import io.jobinfo.store.envelope.EnvelopeHeader;
import io.jobinfo.store.envelope.VerifiedBlob;
import io.jobinfo.store.demo.model.ConnectorJarIdentifier;
import io.jobinfo.store.demo.model.JobImmutableInformation;
import io.jobinfo.store.lifecycle.JobInfoPointer;
import io.jobinfo.store.spi.BlobNotFoundException;
import io.jobinfo.store.spi.JobInfoStore;
import io.jobinfo.store.spi.JobInfoStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import io.jobinfo.store.lifecycle.InlineJob;
import io.jobinfo.store.lifecycle.JobValueFormat;
import io.jobinfo.store.lifecycle.MapValue;
import io.jobinfo.store.lifecycle.MapValueReader;
import io.jobinfo.store.seatunnel.SeaTunnelJobDataCodec;
import io.jobinfo.store.seatunnel.SeaTunnelJobHeader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code inspect JOB_ID}: the map value, the envelope header, a verified read and a summary of the job. */
@Command(name = "inspect", header = "Shows one job: its map value, its blob and whether the blob verifies.",
        exitCodeList = {"0:the job is registered and reads back intact",
            "1:something is wrong (missing, corrupt or mismatched blob; an orphan blob without map entry; a map"
                + " value that does not decode, which is not deserialized)",
            "2:invalid arguments or configuration, or no such job in the map nor the store",
            ExitCodes.HELP_UNREACHABLE,
            ExitCodes.HELP_INTERNAL,
            ExitCodes.HELP_STOPPED_UNCHANGED})
public final class InspectCommand extends OpsCommand {

    @Mixin
    ValueFormatOption valueFormat;

    @Parameters(index = "0", paramLabel = "JOB_ID", description = "The job id (a key of the job map).")
    long jobId;

    @Override
    int execute() {
        try (OpsSession session = OpsSession.open(connection)) {
            JobInfoStore store = session.store();
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("command", "inspect");
            result.put("jobId", jobId);
            result.put("map", session.map().getName());
            List<String> problems = new ArrayList<>();
            // read as the bytes the map stores: only this library's values and the formats' are decoded
            MapValue read = new MapValueReader(session.map(), valueFormat.formats()).read(jobId);
            Object value = read.value();
            byte[] payload = null;
            int codecId = -1;
            JobInfoPointer p = valueFormat.formats().pointerOf(value);
            if (read.undecodable()) {
                result.put("value", "undecodable");
                result.put("serializedBytes", read.serializedBytes());
                problems.add("job " + jobId + ": " + read.problem());
                result.put("location", store.location(jobId).toString());
                headerInto(store, result, new ArrayList<>(), false); // the blob, if any, of whoever wrote the value
            } else if (p != null) {
                result.put("value", "pointer");
                if (!(value instanceof JobInfoPointer)) {
                    result.put("valueClass", value.getClass().getName()); // a pointer inside the engine's own class
                }
                result.put("pointer", pointer(p));
                codecId = p.codecId();
                if (!p.storeId().equals(store.storeId())) {
                    problems.add("the pointer names store '" + p.storeId() + "' but the configured store is '"
                            + store.storeId() + "'; inspect with that store's --storage-config");
                } else {
                    result.put("location", store.location(jobId).toString());
                    headerInto(store, result, problems, true);
                    payload = verifiedPayload(store, result, problems, p);
                }
            } else if (value != null && valueFormat.formats().forValue(value) != null) {
                JobValueFormat format = valueFormat.formats().forValue(value);
                result.put("value", "inline");
                result.put("valueFormat", format.name());
                result.put("valueClass", value.getClass().getName());
                try {
                    InlineJob i = format.read(jobId, value);
                    Map<String, Object> inline = new LinkedHashMap<>();
                    inline.put("initializationTimestamp", i.initializationTimestamp());
                    inline.put("initializedAt", Instant.ofEpochMilli(i.initializationTimestamp()).toString());
                    inline.put("codecId", i.codecId());
                    inline.put("encodedBytes", i.payloadLength());
                    result.put("inline", inline);
                    payload = i.payload();
                    codecId = i.codecId();
                } catch (CodecException e) {
                    problems.add("the " + format.name() + " value is malformed: " + e.getMessage());
                }
                result.put("location", store.location(jobId).toString());
                headerInto(store, result, new ArrayList<>(), false); // a blob here is a migration in progress
            } else if (value instanceof io.jobinfo.store.lifecycle.DeleteMarker) {
                io.jobinfo.store.lifecycle.DeleteMarker marker = (io.jobinfo.store.lifecycle.DeleteMarker) value;
                // no job: it ended (or its orphan blob is being collected) and the blob is being deleted
                result.put("value", "being deleted");
                Map<String, Object> claim = new LinkedHashMap<>();
                claim.put("owner", marker.owner());
                claim.put("claimedAt", marker.claimedAt().toString());
                result.put("deleteClaim", claim);
                result.put("location", store.location(jobId).toString());
                headerInto(store, result, new ArrayList<>(), false);
            } else if (value == null) {
                result.put("value", "absent");
                result.put("location", store.location(jobId).toString());
                if (!headerInto(store, result, problems, false)) {
                    throw new OpsException(ExitCodes.USAGE, "job " + jobId + " is not in map "
                            + session.map().getName() + " and store " + store.storeId() + " has no blob for it at "
                            + store.location(jobId) + "; check the id (the keys of the map are the running jobs,"
                            + " 'verify' lists them) and --map");
                }
                problems.add("orphan: the store holds a blob for this job but the map has no entry (gc removes it"
                        + " after the grace period)");
                payload = verifiedPayload(store, result, problems, null);
                Object header = result.get("header");
                Object headerCodecId = header instanceof Map<?, ?> ? ((Map<?, ?>) header).get("codecId") : null;
                codecId = headerCodecId instanceof Integer ? (Integer) headerCodecId : -1;
            } else {
                result.put("value", value.getClass().getName());
                problems.add("the map value is neither a pointer nor an inline job of the formats "
                        + valueFormat.formats().names() + "; choose the map's value format (--value-format)");
            }
            if (payload != null) {
                result.put("job", codecId == SeaTunnelJobDataCodec.ID ? seaTunnelSummary(payload, problems)
                        : summary(payload, codecId, problems));
            }
            result.put("problems", problems);
            int exit = problems.isEmpty() ? ExitCodes.OK : ExitCodes.PROBLEMS;
            result.put("exitCode", exit);
            if (json) {
                printJson(result);
            } else {
                print(out(), result);
            }
            return exit;
        }
    }

    private static Map<String, Object> pointer(JobInfoPointer p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("storeId", p.storeId());
        m.put("initializationTimestamp", p.initializationTimestamp());
        m.put("initializedAt", Instant.ofEpochMilli(p.initializationTimestamp()).toString());
        m.put("payloadLength", p.payloadLength());
        m.put("crc32c", String.format("%08x", p.payloadCrc32c()));
        m.put("sha256Prefix", p.sha256PrefixHex());
        m.put("codecId", p.codecId());
        m.put("formatVersion", p.formatVersion());
        return m;
    }

    /** Reads the raw header; returns whether a blob exists. */
    private boolean headerInto(JobInfoStore store, Map<String, Object> result, List<String> problems,
                               boolean expected) {
        try (InputStream in = store.openRaw(jobId)) {
            EnvelopeHeader h = BlobEnvelope.readHeader(in);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("formatVersion", h.formatVersion());
            m.put("codecId", h.codecId());
            m.put("jobId", h.jobId());
            m.put("payloadLength", h.payloadLength());
            m.put("blobLength", h.blobLength());
            m.put("crc32c", String.format("%08x", h.payloadCrc32c()));
            m.put("sha256", h.sha256Hex());
            if (h.hasInitializationTimestamp()) {
                m.put("initializationTimestamp", h.initializationTimestamp());
            }
            result.put("header", m);
            return true;
        } catch (BlobNotFoundException e) {
            if (expected) {
                problems.add("the blob is missing: " + e.getMessage());
            }
            return false;
        } catch (EnvelopeFormatException e) {
            problems.add("the blob's header is invalid: " + e.getMessage());
            return true;
        } catch (JobInfoStoreException e) {
            throw new OpsException(ExitCodes.UNREACHABLE, "reading the blob failed: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new OpsException(ExitCodes.UNREACHABLE, "reading the blob at " + store.location(jobId)
                    + " failed: " + e, e);
        }
    }

    private byte[] verifiedPayload(JobInfoStore store, Map<String, Object> result, List<String> problems,
                                   JobInfoPointer pointer) {
        try {
            VerifiedBlob blob = store.read(jobId);
            boolean matches = pointer == null || pointer.matches(blob.header());
            result.put("verified", matches);
            if (!matches) {
                problems.add("the blob verifies but does not match its pointer (blob " + blob.header() + ")");
                return null;
            }
            return blob.payload();
        } catch (BlobNotFoundException e) {
            result.put("verified", false);
            return null; // reported with the header
        } catch (JobInfoStoreException e) {
            result.put("verified", false);
            problems.add("the blob fails verification: " + e.getMessage());
            return null;
        }
    }

    private static Map<String, Object> summary(byte[] payload, int codecId, List<String> problems) {
        KryoJobInfoCodec<JobImmutableInformation> codec = JobImmutableInformationSerializer.codec();
        Map<String, Object> m = new LinkedHashMap<>();
        if (codecId != codec.id()) {
            m.put("decoded", false);
            m.put("note", "codec id " + codecId + " is not known to this tool (it knows " + codec.name() + ", id "
                    + codec.id() + ")");
            return m;
        }
        try {
            JobImmutableInformation job = codec.decode(payload);
            m.put("decoded", true);
            m.put("jobId", job.jobId());
            m.put("jobName", job.jobName());
            m.put("createTime", Instant.ofEpochMilli(job.createTime()).toString());
            m.put("startWithSavePoint", job.isStartWithSavePoint());
            m.put("logicalDagBytes", job.logicalDagLength());
            m.put("jobConfigName", job.jobConfig() == null ? null : job.jobConfig().name());
            // env option names only: values may be anything a job author typed, credentials included
            m.put("envOptionKeys", job.jobConfig() == null ? Collections.emptyList()
                    : new ArrayList<>(new TreeSet<>(job.jobConfig().envOptions().keySet())));
            m.put("pluginJars", job.pluginJarsUrls().size());
            TreeSet<String> connectors = new TreeSet<>();
            for (ConnectorJarIdentifier c : job.connectorJarIdentifiers()) {
                connectors.add(c.pluginName());
            }
            m.put("connectorJars", job.connectorJarIdentifiers().size());
            m.put("connectors", new ArrayList<>(connectors));
            m.put("encodedBytes", payload.length);
        } catch (CodecException e) {
            m.put("decoded", false);
            problems.add("the payload cannot be decoded: " + e.getMessage());
        }
        return m;
    }

    /** The leading fields of SeaTunnel's JobImmutableInformation, read in place: nothing is deserialized. */
    private Map<String, Object> seaTunnelSummary(byte[] payload, List<String> problems) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("codecId", SeaTunnelJobDataCodec.ID);
        m.put("codec", SeaTunnelJobDataCodec.NAME);
        try {
            SeaTunnelJobHeader h = SeaTunnelJobDataCodec.inspect(jobId, payload);
            m.put("decoded", false);
            m.put("inspected", true);
            m.put("jobId", h.jobId());
            m.put("jobName", h.jobName());
            m.put("createTime", Instant.ofEpochMilli(h.createTime()).toString());
            m.put("startWithSavePoint", h.startWithSavePoint());
            m.put("layout", h.verticesBeforeDag() ? "2.3.10 (vertices before the DAG)" : "2.3.8");
            if (h.logicalDagLength() >= 0) {
                m.put("logicalDagBytes", h.logicalDagLength());
            }
            m.put("encodedBytes", payload.length);
        } catch (CodecException e) {
            m.put("inspected", false);
            problems.add("the payload is not SeaTunnel's job Data: " + e.getMessage());
        }
        return m;
    }

    private static void print(PrintWriter out, Map<String, Object> r) {
        out.printf("Job %s in map %s: %s%n", r.get("jobId"), r.get("map"), r.get("value"));
        section(out, "pointer", r.get("pointer"));
        section(out, "inline value", r.get("inline"));
        section(out, "delete claim (no job: its blob is being deleted)", r.get("deleteClaim"));
        if (r.get("location") != null) {
            out.printf("blob location: %s%n", r.get("location"));
        }
        section(out, "envelope header", r.get("header"));
        if (r.get("verified") != null) {
            out.printf("verified read: %s%n", Boolean.TRUE.equals(r.get("verified")) ? "OK (length, CRC32C, SHA-256"
                    + " and pointer match)" : "FAILED");
        }
        section(out, "job", r.get("job"));
        @SuppressWarnings("unchecked")
        List<String> problems = (List<String>) r.get("problems");
        for (String p : problems) {
            out.println("PROBLEM: " + p);
        }
        out.println(problems.isEmpty() ? "OK" : "PROBLEMS FOUND");
        out.flush();
    }

    private static void section(PrintWriter out, String title, Object value) {
        if (value instanceof Map<?, ?>) {
            out.println(title + ":");
            ((Map<?, ?>) value).forEach((k, v) -> out.printf("  %-24s %s%n", k, v));
        }
    }
}

package io.jobinfo.store.cli.ops;

import io.jobinfo.store.lifecycle.InlineJobInfo;

import io.jobinfo.store.lifecycle.InlineJobInfoFormat;
import io.jobinfo.store.lifecycle.JobValueFormats;
import io.jobinfo.store.seatunnel.SeaTunnelJobInfoFormat;
import picocli.CommandLine.Option;

/** {@code --value-format}: which inline values the job map holds; a picocli mixin of migrate, verify and inspect. */
public final class ValueFormatOption {

    /** The choices. */
    enum Choice {
        /** SeaTunnel's own JobInfo and this library's InlineJobInfo, recognised per value. */
        auto,
        /** SeaTunnel's own {@code org.apache.seatunnel.engine.core.job.JobInfo} only. */
        seatunnel,
        /** This library's {@code InlineJobInfo} only. */
        inline
    }

    @Option(names = "--value-format", defaultValue = "auto", paramLabel = "FORMAT")
    Choice valueFormat = Choice.auto;

    JobValueFormats formats() {
        switch (valueFormat) {
            case seatunnel:
                return JobValueFormats.of(new SeaTunnelJobInfoFormat());
            case inline:
                return JobValueFormats.inlineOnly();
            case auto:
            default:
                return JobValueFormats.of(new SeaTunnelJobInfoFormat(), new InlineJobInfoFormat());
        }
    }
}

package io.jobinfo.store.cli.ops;

import picocli.CommandLine.Mixin;

/** What the operations commands that reach a cluster share: the connection options, besides {@link ReportCommand}. */
abstract class OpsCommand extends ReportCommand {

    @Mixin
    ConnectionOptions connection;
}

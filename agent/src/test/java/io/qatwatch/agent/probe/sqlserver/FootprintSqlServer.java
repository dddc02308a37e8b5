package io.qatwatch.agent.probe.sqlserver;

import io.qatwatch.tds.TdsTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SQL Server that {@code scripts/agent-footprint.sh} points the agent at: the TDS test server answering
 * as a SQL Server 2022 Enterprise instance in hardware mode with a msdb of N backup rows. Prints the JDBC
 * URL, the login and the password file on stdout, one per line, then serves until killed.
 */
public final class FootprintSqlServer {

    private FootprintSqlServer() {
    }

    /** Arguments: the number of backup rows (default 100000) and a folder for the password file. */
    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
        Path dir = Files.createDirectories(Path.of(args.length > 1 ? args[1] : "target/footprint-sql"));
        TdsTestServer server = TdsTestServer.start(FootprintMsdb.scenario(new AtomicLong(rows)));
        System.out.println(server.jdbcUrl());
        System.out.println(SqlScenarios.USER);
        System.out.println(SqlScenarios.passwordFile(dir).toAbsolutePath());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}

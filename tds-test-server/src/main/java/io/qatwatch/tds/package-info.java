/**
 * A TDS test server: a SQL Server stand-in that the real mssql-jdbc driver talks to over TCP on 127.0.0.1.
 *
 * <pre>
 * Scenario scenario = Scenario.fromResource("/sqlserver/scenarios/sql2022-enterprise-hardware.json")
 *         .answer("backup-history-2022.sql", sql -&gt; TdsResponse.rows(columns, pageFor(sql)));
 * try (TdsTestServer server = TdsTestServer.start(scenario);
 *      Connection c = DriverManager.getConnection(server.jdbcUrl(), "qatwatch_monitor", "s3cret-Pa55")) {
 *     ... c.createStatement().executeQuery(...) ...
 *     server.batches();   // every SQL batch received, in order
 * }
 * </pre>
 *
 * A batch is answered by the responder whose marker (a query file name such as {@code backup-history.sql}) occurs
 * in its text, the longest marker winning; {@code SELECT 1} (Connection.isValid) is built in; anything else gets
 * Msg 208 naming the scenario and its markers. Responses: rows (generated lazily if wanted), one or more ERROR tokens with
 * DONE(error), and delays that honour the driver's ATTENTION on query timeout. RPC (prepared statements with the
 * driver's default prepareMethod) is answered with an error: use {@code Statement} or {@code prepareMethod=none}.
 */
package io.qatwatch.tds;

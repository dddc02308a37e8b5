package io.qatwatch.tds;

import java.time.Duration;
import java.util.List;

/** What the test server answers to one SQL batch: a result set, a server error, or either of those after a delay. */
public sealed interface TdsResponse permits TdsResponse.Rows, TdsResponse.ServerError, TdsResponse.ServerErrors, TdsResponse.Delayed {

    /**
     * A result set. {@code rows} is iterated once per answer and may be generated lazily, so a page of
     * generated rows never has to exist as a whole list.
     */
    record Rows(List<Column> columns, Iterable<? extends List<?>> rows) implements TdsResponse {
        public Rows {
            columns = List.copyOf(columns);
        }
    }

    /** An ERROR token followed by a DONE with the error bit, as SQL Server sends for a failed statement. */
    record ServerError(int number, int state, int severity, String message) implements TdsResponse {
    }

    /**
     * Several ERROR tokens, then one DONE with the error bit: what SQL Server sends when one failure raises more
     * than one message, e.g. Msg 300 followed by Msg 297 for a missing server permission.
     */
    record ServerErrors(List<ServerError> errors) implements TdsResponse {
        public ServerErrors {
            if (errors.isEmpty()) {
                throw new IllegalArgumentException("at least one error");
            }
            errors = List.copyOf(errors);
        }
    }

    /**
     * The response after {@code delay}. If the client gives up first (query timeout) and sends ATTENTION,
     * the server acknowledges it with DONE(ATTN) instead, as SQL Server does.
     */
    record Delayed(Duration delay, TdsResponse then) implements TdsResponse {
    }

    static Rows rows(List<Column> columns, Iterable<? extends List<?>> rows) {
        return new Rows(columns, rows);
    }

    static ServerError error(int number, int severity, String message) {
        return new ServerError(number, 1, severity, message);
    }

    /**
     * What SQL Server sends when a server permission is missing, e.g. {@code permissionDenied("VIEW SERVER STATE")}:
     * Msg 300 (level 14, state 1) naming the permission, then Msg 297 (level 16, state 1), as captured in
     * MicrosoftDocs/sql-docs issue 1452 and amachanic/sp_whoisactive issue 126.
     */
    static ServerErrors permissionDenied(String permission) {
        return new ServerErrors(List.of(
                new ServerError(300, 1, 14, permission + " permission was denied on object 'server', database 'master'."),
                new ServerError(297, 1, 16, "The user does not have permission to perform this action.")));
    }

    /** Msg 229: SELECT denied on an object, e.g. {@code selectDenied("backupset", "msdb", "dbo")}. */
    static ServerError selectDenied(String object, String database, String schema) {
        return new ServerError(229, 5, 14, "The SELECT permission was denied on the object '" + object
                + "', database '" + database + "', schema '" + schema + "'.");
    }

    /** Msg 208, what SQL Server says for a view it does not have (e.g. a 2022 DMV on 2019). */
    static ServerError invalidObject(String object) {
        return new ServerError(208, 1, 16, "Invalid object name '" + object + "'.");
    }
}

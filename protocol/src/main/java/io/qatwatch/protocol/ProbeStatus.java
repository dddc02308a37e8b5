package io.qatwatch.protocol;

/**
 * How one probe or query went in this cycle. A failure is reported here, never fatal to the cycle;
 * "found nothing" is {@code ok = true}.
 *
 * @param name       probe name, e.g. {@code qat}, {@code sqlserver:PROD/backup-history}
 * @param error      what went wrong, null when ok
 * @param hint       what to do about it (e.g. the permission to grant), null when none
 */
public record ProbeStatus(String name, boolean ok, long durationMs, String error, String hint) {

    public static ProbeStatus ok(String name, long durationMs) {
        return new ProbeStatus(name, true, durationMs, null, null);
    }

    public static ProbeStatus failed(String name, long durationMs, String error, String hint) {
        return new ProbeStatus(name, false, durationMs, error, hint);
    }
}

package io.qatwatch.agent.probe.sqlserver;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;

/** Pure conversions of SQL Server values into the report's terms: times to UTC, device and target kinds, TDE states. */
final class SqlServerValues {

    /** {@code backupset.time_zone} when SQL Server did not know the offset. */
    static final int TIME_ZONE_UNKNOWN = 127;

    private SqlServerValues() {
    }

    /**
     * A {@code backupset} local time in UTC. {@code time_zone} counts 15-minute steps from UTC at the backup's
     * start (-20 = UTC-5); 127 or null means unknown, and then the host's zone stands in.
     */
    static Instant backupTimeUtc(LocalDateTime local, Integer timeZone, ZoneId hostZone) {
        if (local == null) {
            return null;
        }
        if (timeZone == null || timeZone == TIME_ZONE_UNKNOWN) {
            return local.atZone(hostZone).toInstant();
        }
        return local.toInstant(ZoneOffset.ofTotalSeconds(timeZone * 15 * 60));
    }

    static boolean timeZoneKnown(Integer timeZone) {
        return timeZone != null && timeZone != TIME_ZONE_UNKNOWN;
    }

    /** A server-local time in UTC, given the server's current offset ({@code DATEPART(TZOFFSET, SYSDATETIMEOFFSET())}). */
    static Instant serverTimeUtc(LocalDateTime local, int serverOffsetMinutes) {
        return local == null ? null : local.toInstant(ZoneOffset.ofTotalSeconds(serverOffsetMinutes * 60));
    }

    /**
     * {@code backupmediafamily.device_type} (sql-docs backupmediafamily page): 2 disk and 102 a permanent disk device,
     * 5 tape and 105 a permanent tape device, 7 virtual device (VDI backup tools), 9 URL (Azure Storage or S3). Nothing is
     * documented for other codes (e.g. 107): UNKNOWN.
     */
    static String deviceType(Integer code) {
        if (code == null) {
            return "UNKNOWN";
        }
        return switch (code) {
            case 2, 102 -> "DISK";
            case 5, 105 -> "TAPE";
            case 7 -> "VIRTUAL_DEVICE";
            case 9 -> "URL";
            default -> "UNKNOWN";
        };
    }

    /**
     * Where the bytes went: TAPE, VIRTUAL_DEVICE (a backup tool holds the bytes) and URL from the device type; for a disk,
     * from its path: NUL (discarded: a throughput test with {@code TO DISK = 'NUL'}), UNC (a share), URL (an S3 or
     * https path written to a disk device), LOCAL (a drive letter or a Unix path); else UNKNOWN. Only a disk path names a
     * share: a tape's {@code \\.\Tape0} is not UNC, and an unknown device type gives UNKNOWN whatever its name.
     */
    static String target(Integer deviceCode, String physicalDeviceName) {
        String deviceType = deviceType(deviceCode);
        if (!deviceType.equals("DISK")) {
            return deviceType;
        }
        if (physicalDeviceName == null || physicalDeviceName.isBlank()) {
            return "UNKNOWN";
        }
        String path = physicalDeviceName.trim();
        String lower = path.toLowerCase(Locale.ROOT);
        if (lower.equals("nul") || lower.equals("/dev/null")) {
            return "NUL";
        }
        if (lower.startsWith("\\\\?\\unc\\")) {
            return "UNC";
        }
        if (lower.startsWith("\\\\?\\") || lower.startsWith("\\\\.\\")) {
            // Win32 long-path or device namespace prefix in front of a local path, not a server name
            return path.substring(4).matches("^[A-Za-z]:[\\\\/].*") ? "LOCAL" : "UNKNOWN";
        }
        if (path.startsWith("\\\\") || path.startsWith("//")) {
            return "UNC";
        }
        if (lower.startsWith("https://") || lower.startsWith("http://") || lower.startsWith("s3://")) {
            return "URL";
        }
        if (path.matches("^[A-Za-z]:[\\\\/].*") || path.startsWith("/")) {
            return "LOCAL";
        }
        return "UNKNOWN";
    }

    /** {@code sys.dm_database_encryption_keys.encryption_state} by name (the _desc column only exists from 2019). */
    static String encryptionState(int code) {
        return switch (code) {
            case 0 -> "NONE";
            case 1 -> "UNENCRYPTED";
            case 2 -> "ENCRYPTION_IN_PROGRESS";
            case 3 -> "ENCRYPTED";
            case 4 -> "KEY_CHANGE_IN_PROGRESS";
            case 5 -> "DECRYPTION_IN_PROGRESS";
            case 6 -> "PROTECTION_CHANGE_IN_PROGRESS";
            default -> "UNKNOWN";
        };
    }

    /** A thumbprint as DBAs paste it into T-SQL: {@code 0x} and upper-case hex. */
    static String thumbprint(byte[] bytes) {
        return bytes == null ? null : "0x" + HexFormat.of().withUpperCase().formatHex(bytes);
    }

    /**
     * The compression algorithm of a backup. From 2022 the server says; before, MS_XPRESS was the only
     * algorithm, so a backup smaller on disk than its data was compressed with it.
     */
    static String compressionAlgorithm(boolean columnExists, String reported, long backupSize, Long compressedSize) {
        if (columnExists) {
            return reported == null ? null : reported.trim();
        }
        return compressedSize != null && compressedSize < backupSize ? "MS_XPRESS" : null;
    }

    /** A GUID in lower case, as the report writes them. */
    static String guid(String value) {
        return value == null ? null : value.toLowerCase(Locale.ROOT);
    }
}

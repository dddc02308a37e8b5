package io.qatwatch.collector.store;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The fleet cut into a fixed number of slices by host name, the unit several collectors on one PostgreSQL store
 * lease to split the alert stage between them. The same name gives the same slice in every collector and version:
 * the CRC-32 of its UTF-8 bytes.
 */
public final class HostSlices {

    /** Slices in the fleet: enough to divide it evenly among a few dozen collectors. Never changes. */
    public static final int COUNT = 64;

    private HostSlices() {
    }

    /** The slice of {@code host}, 0 to {@link #COUNT} - 1. */
    public static int of(String host) {
        CRC32 crc = new CRC32();
        crc.update(host.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % COUNT);
    }
}

package io.qatwatch.agent.ship;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * One report as stored in an outbox segment: a 12-byte header (magic, payload length, CRC32C of the
 * payload) followed by the payload (sequence number, report id, report body).
 */
record OutboxRecord(long seq, String reportId, byte[] body) {

    /** "QWR1": marks the start of a record, so a scan can tell a record from garbage. */
    static final int MAGIC = 0x51575231;
    static final int HEADER_BYTES = 12;
    /** Largest payload a header may announce; anything larger is corruption. */
    static final int MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

    static int encodedSize(String reportId, int bodyBytes) {
        return HEADER_BYTES + 8 + 2 + reportId.getBytes(StandardCharsets.US_ASCII).length + bodyBytes;
    }

    /** The whole record in one buffer (a copy of the body); the outbox itself writes {@link #head()} and the body apart. */
    ByteBuffer encode() {
        ByteBuffer head = head();
        ByteBuffer buf = ByteBuffer.allocate(head.remaining() + body.length);
        buf.put(head).put(body);
        buf.flip();
        return buf;
    }

    /**
     * Everything of the record before the body: header (with the checksum over the whole payload), sequence number
     * and report id. Written before the body itself, so that appending a report of several MB does not copy it.
     */
    ByteBuffer head() {
        byte[] id = reportId.getBytes(StandardCharsets.US_ASCII);
        int prefix = 8 + 2 + id.length;
        ByteBuffer buf = ByteBuffer.allocate(HEADER_BYTES + prefix);
        buf.putInt(MAGIC).putInt(prefix + body.length).putInt(0);
        buf.putLong(seq).putShort((short) id.length).put(id);
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), HEADER_BYTES, prefix);
        crc.update(body, 0, body.length);
        buf.putInt(8, (int) crc.getValue());
        buf.flip();
        return buf;
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}

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

    ByteBuffer encode() {
        byte[] id = reportId.getBytes(StandardCharsets.US_ASCII);
        int payload = 8 + 2 + id.length + body.length;
        ByteBuffer buf = ByteBuffer.allocate(HEADER_BYTES + payload);
        buf.putInt(MAGIC).putInt(payload).putInt(0);
        buf.putLong(seq).putShort((short) id.length).put(id).put(body);
        buf.putInt(8, crc(buf.array(), HEADER_BYTES, payload));
        buf.flip();
        return buf;
    }

    /** Decodes a payload whose checksum was verified; null when its inner lengths do not add up. */
    static OutboxRecord decodePayload(ByteBuffer payload) {
        if (payload.remaining() < 10) {
            return null;
        }
        long seq = payload.getLong();
        int idLength = Short.toUnsignedInt(payload.getShort());
        if (idLength > payload.remaining()) {
            return null;
        }
        byte[] id = new byte[idLength];
        payload.get(id);
        byte[] body = new byte[payload.remaining()];
        payload.get(body);
        return new OutboxRecord(seq, new String(id, StandardCharsets.US_ASCII), body);
    }

    static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}

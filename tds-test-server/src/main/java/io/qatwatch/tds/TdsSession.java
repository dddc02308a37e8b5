package io.qatwatch.tds;

import io.qatwatch.tds.SqlType.TdsBuffer;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One client connection: reads TDS messages and answers them (MS-TDS 2.2). Package-private. */
final class TdsSession {

    private static final int SQL_BATCH = 0x01;
    private static final int RPC = 0x03;
    private static final int REPLY = 0x04;
    private static final int ATTENTION = 0x06;
    private static final int TRANSACTION_MANAGER = 0x0E;
    private static final int LOGIN7 = 0x10;
    private static final int PRELOGIN = 0x12;

    private static final int DONE_ERROR = 0x0002;
    private static final int DONE_COUNT = 0x0010;
    private static final int DONE_ATTN = 0x0020;
    private static final int CURCMD_SELECT = 0x00C1;

    private static final int PACKET_SIZE = 4096;
    private static final int TDS_7_4 = 0x74000004;
    private static final String SERVER_NAME = "TDSTEST";

    private final TdsTestServer server;
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int packetId = 1;

    TdsSession(TdsTestServer server, Socket socket) throws IOException {
        this.server = server;
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new BufferedOutputStream(socket.getOutputStream(), PACKET_SIZE);
    }

    void run() throws IOException {
        while (true) {
            Message m;
            try {
                m = readMessage();
            } catch (EOFException closed) {
                return;
            }
            switch (m.type) {
                case PRELOGIN -> answerPrelogin();
                case LOGIN7 -> {
                    if (!answerLogin(m.payload)) {
                        return;
                    }
                }
                case SQL_BATCH -> answerBatch(m.payload);
                case ATTENTION -> sendDone(DONE_ATTN, 0, 0);
                case RPC, TRANSACTION_MANAGER -> sendErrors(List.of(new TdsResponse.ServerError(50000, 1, 16,
                        "the TDS test server answers SQL batches only: use java.sql.Statement, or prepareMethod=none")));
                default -> throw new IOException("unexpected TDS message type 0x" + Integer.toHexString(m.type));
            }
        }
    }

    private record Message(int type, byte[] payload) {
    }

    /** Reads packets up to the one with END OF MESSAGE (status bit 0x01) and joins their data. */
    private Message readMessage() throws IOException {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        int type;
        int status;
        do {
            type = in.readUnsignedByte();
            status = in.readUnsignedByte();
            int length = in.readUnsignedShort();
            in.skipNBytes(4);
            byte[] data = new byte[length - 8];
            in.readFully(data);
            payload.write(data);
        } while ((status & 0x01) == 0);
        return new Message(type, payload.toByteArray());
    }

    /** PRELOGIN reply: VERSION, ENCRYPTION = ENCRYPT_NOT_SUP (so no TLS at all), INSTOPT, MARS off (2.2.6.5). */
    private void answerPrelogin() throws IOException {
        int[] v = version();
        TdsBuffer b = new TdsBuffer();
        int dataStart = 4 * 5 + 1;
        b.u8(0x00).u8(0).u8(dataStart).u8(0).u8(6);
        b.u8(0x01).u8(0).u8(dataStart + 6).u8(0).u8(1);
        b.u8(0x02).u8(0).u8(dataStart + 7).u8(0).u8(1);
        b.u8(0x04).u8(0).u8(dataStart + 8).u8(0).u8(1);
        b.u8(0xFF);
        b.u8(v[0]).u8(v[1]).u8(v[2] >>> 8).u8(v[2]).u16(0);
        b.u8(0x02);
        b.u8(0x00);
        b.u8(0x00);
        send(b.toByteArray());
    }

    /** LOGIN7 (2.2.6.4): checks the credentials, then ENVCHANGEs, LOGINACK and DONE; false when rejected. */
    private boolean answerLogin(byte[] p) throws IOException {
        ByteBuffer login = ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN);
        String user = loginString(login, 40);
        String password = decodePassword(login, 44);
        String app = loginString(login, 48);
        String database = loginString(login, 68);
        boolean accepted = server.scenario().accepts(user, password);
        server.recordLogin(new TdsTestServer.Login(user, password, database, app, accepted));
        if (!accepted) {
            sendErrors(List.of(new TdsResponse.ServerError(18456, 1, 14, "Login failed for user '" + user + "'.")));
            return false;
        }
        String db = database.isEmpty() ? "master" : database;
        int[] v = version();
        TdsBuffer b = new TdsBuffer();
        envChange(b, 1, db, "master");
        TdsBuffer collation = new TdsBuffer().u8(7).u8(SqlType.COLLATION.length).bytes(SqlType.COLLATION).u8(0);
        b.u8(0xE3).u16(collation.size()).bytes(collation.toByteArray());
        envChange(b, 2, "us_english", "");
        TdsBuffer ack = new TdsBuffer().u8(1)
                .u8(TDS_7_4 >>> 24).u8(TDS_7_4 >>> 16).u8(TDS_7_4 >>> 8).u8(TDS_7_4)
                .bVarchar("Microsoft SQL Server").u8(v[0]).u8(v[1]).u8(v[2] >>> 8).u8(v[2]);
        b.u8(0xAD).u16(ack.size()).bytes(ack.toByteArray());
        envChange(b, 4, Integer.toString(PACKET_SIZE), Integer.toString(PACKET_SIZE));
        done(b, 0, 0, 0);
        send(b.toByteArray());
        return true;
    }

    private static void envChange(TdsBuffer b, int type, String newValue, String oldValue) {
        TdsBuffer body = new TdsBuffer().u8(type).bVarchar(newValue).bVarchar(oldValue);
        b.u8(0xE3).u16(body.size()).bytes(body.toByteArray());
    }

    private static String loginString(ByteBuffer login, int at) {
        int offset = Short.toUnsignedInt(login.getShort(at));
        int chars = Short.toUnsignedInt(login.getShort(at + 2));
        return new String(login.array(), offset, chars * 2, StandardCharsets.UTF_16LE);
    }

    /** LOGIN7 passwords are obfuscated: each byte's nibbles swapped, then XOR 0xA5; this undoes it. */
    private static String decodePassword(ByteBuffer login, int at) {
        int offset = Short.toUnsignedInt(login.getShort(at));
        int chars = Short.toUnsignedInt(login.getShort(at + 2));
        byte[] b = new byte[chars * 2];
        for (int i = 0; i < b.length; i++) {
            int x = (login.array()[offset + i] & 0xFF) ^ 0xA5;
            b[i] = (byte) (((x & 0x0F) << 4) | (x >>> 4));
        }
        return new String(b, StandardCharsets.UTF_16LE);
    }

    /** SQL_BATCH (2.2.6.7): skip ALL_HEADERS, decode the UTF-16LE text, answer from the scenario. */
    private void answerBatch(byte[] p) throws IOException {
        int headers = ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        String sql = new String(p, headers, p.length - headers, StandardCharsets.UTF_16LE);
        server.recordBatch(sql);
        answer(server.scenario().respond(sql));
    }

    private void answer(TdsResponse response) throws IOException {
        if (response instanceof TdsResponse.Delayed d) {
            if (attentionWithin(d.delay().toMillis())) {
                // The cancelled request's reply ends first; the acknowledgement follows as its own message,
                // which is what mssql-jdbc reads after the reply's END OF MESSAGE while attention is pending.
                sendDone(0, CURCMD_SELECT, 0);
                sendDone(DONE_ATTN, 0, 0);
            } else {
                answer(d.then());
            }
        } else if (response instanceof TdsResponse.ServerError e) {
            sendErrors(List.of(e));
        } else if (response instanceof TdsResponse.ServerErrors e) {
            sendErrors(e.errors());
        } else if (response instanceof TdsResponse.Rows r) {
            sendRows(r);
        }
    }

    /** Waits up to {@code millis} for the client to cancel with ATTENTION; true if it did. */
    private boolean attentionWithin(long millis) throws IOException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        int previous = socket.getSoTimeout();
        try {
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    return false;
                }
                socket.setSoTimeout((int) Math.max(1, left));
                try {
                    Message m = readMessage();
                    if (m.type == ATTENTION) {
                        return true;
                    }
                } catch (SocketTimeoutException timeUp) {
                    return false;
                }
            }
        } finally {
            socket.setSoTimeout(previous);
        }
    }

    /** COLMETADATA (2.2.7.4), one ROW per row (2.2.7.19), DONE with the row count; streamed in packets. */
    private void sendRows(TdsResponse.Rows r) throws IOException {
        PacketStream stream = new PacketStream();
        TdsBuffer b = new TdsBuffer();
        List<Column> columns = r.columns();
        b.u8(0x81).u16(columns.size());
        for (Column c : columns) {
            b.i32(0).u16(0x0001);
            c.type().writeTypeInfo(b);
            b.bVarchar(c.name());
        }
        stream.write(b);
        long count = 0;
        for (List<?> row : r.rows()) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("row has " + row.size() + " values for " + columns.size() + " columns");
            }
            b.reset();
            b.u8(0xD1);
            for (int i = 0; i < columns.size(); i++) {
                columns.get(i).type().writeValue(b, row.get(i));
            }
            stream.write(b);
            count++;
        }
        b.reset();
        done(b, DONE_COUNT, CURCMD_SELECT, count);
        stream.write(b);
        stream.end();
    }

    /** One ERROR token (2.2.7.10) per error, then one DONE with the error bit. */
    private void sendErrors(List<TdsResponse.ServerError> errors) throws IOException {
        TdsBuffer b = new TdsBuffer();
        for (TdsResponse.ServerError e : errors) {
            TdsBuffer body = new TdsBuffer().i32(e.number()).u8(e.state()).u8(e.severity())
                    .usVarchar(e.message()).bVarchar(SERVER_NAME).bVarchar("").i32(1);
            b.u8(0xAA).u16(body.size()).bytes(body.toByteArray());
        }
        done(b, DONE_ERROR, CURCMD_SELECT, 0);
        send(b.toByteArray());
    }

    private void sendDone(int status, int command, long rows) throws IOException {
        TdsBuffer b = new TdsBuffer();
        done(b, status, command, rows);
        send(b.toByteArray());
    }

    /** DONE (2.2.7.6): status, current command, 64-bit row count. */
    private static void done(TdsBuffer b, int status, int command, long rows) {
        b.u8(0xFD).u16(status).u16(command).i64(rows);
    }

    private void send(byte[] message) throws IOException {
        PacketStream stream = new PacketStream();
        stream.write(message, 0, message.length);
        stream.end();
    }

    private int[] version() {
        String[] parts = server.scenario().productVersion().split("\\.");
        int[] v = new int[3];
        for (int i = 0; i < 3 && i < parts.length; i++) {
            v[i] = Integer.parseInt(parts[i]);
        }
        return v;
    }

    /** Splits a reply into packets of at most the negotiated size (2.2.3.1); the last carries END OF MESSAGE. */
    private final class PacketStream {
        private final byte[] packet = new byte[PACKET_SIZE];
        private int used = 8;

        void write(TdsBuffer b) throws IOException {
            byte[] bytes = b.toByteArray();
            write(bytes, 0, bytes.length);
        }

        void write(byte[] bytes, int from, int length) throws IOException {
            while (length > 0) {
                if (used == PACKET_SIZE) {
                    flush(false);
                }
                int n = Math.min(length, PACKET_SIZE - used);
                System.arraycopy(bytes, from, packet, used, n);
                used += n;
                from += n;
                length -= n;
            }
        }

        void end() throws IOException {
            flush(true);
            out.flush();
        }

        private void flush(boolean last) throws IOException {
            packet[0] = (byte) REPLY;
            packet[1] = (byte) (last ? 0x01 : 0x00);
            packet[2] = (byte) (used >>> 8);
            packet[3] = (byte) used;
            packet[4] = 0;
            packet[5] = 0x33;
            packet[6] = (byte) packetId;
            packet[7] = 0;
            packetId = (packetId + 1) & 0xFF;
            out.write(packet, 0, used);
            used = 8;
        }
    }
}

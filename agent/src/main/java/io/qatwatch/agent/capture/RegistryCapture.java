package io.qatwatch.agent.capture;

import io.qatwatch.agent.probe.host.RegistryView;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The registry as the Windows probe read it: every key it listed or read, with the values it found, written
 * back as a {@code reg export} file (UTF-16LE with a byte-order mark, as Windows writes it) that
 * {@code probe --registry} reads as the same host.
 */
final class RegistryCapture implements RegistryView {

    private final RegistryView registry;
    /** Keys by path (case-insensitive, as in the registry): the path as first seen, and its values. */
    private final Map<String, Key> keys = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    private record Key(String path, Map<String, Object> values) {
    }

    RegistryCapture(RegistryView registry) {
        this.registry = registry;
    }

    @Override
    public List<String> subKeys(String path) {
        List<String> names = registry.subKeys(path);
        if (!names.isEmpty()) {
            key(path);
            names.forEach(name -> key(path + "\\" + name));
        }
        return names;
    }

    @Override
    public Map<String, Object> values(String path) {
        Map<String, Object> values = registry.values(path);
        if (!values.isEmpty()) {
            key(path).values().putAll(values);
        }
        return values;
    }

    private Key key(String path) {
        return keys.computeIfAbsent(path, p -> new Key(p, new LinkedHashMap<>()));
    }

    boolean isEmpty() {
        return keys.isEmpty();
    }

    /** The export, each string value passed through {@code strings} (the anonymiser, or unchanged). */
    byte[] export(UnaryOperator<String> strings) {
        StringBuilder out = new StringBuilder("Windows Registry Editor Version 5.00\r\n");
        for (Key key : keys.values()) {
            out.append("\r\n[HKEY_LOCAL_MACHINE\\").append(key.path()).append("]\r\n");
            key.values().forEach((name, value) -> out.append(name.isEmpty() ? "@" : quoted(name)).append('=')
                    .append(data(value, strings)).append("\r\n"));
        }
        byte[] text = out.toString().getBytes(StandardCharsets.UTF_16LE);
        byte[] withBom = new byte[text.length + 2];
        withBom[0] = (byte) 0xFF;
        withBom[1] = (byte) 0xFE;
        System.arraycopy(text, 0, withBom, 2, text.length);
        return withBom;
    }

    private static String data(Object value, UnaryOperator<String> strings) {
        if (value instanceof String s) {
            String text = strings.apply(s);
            // reg export writes a string it cannot quote on one line as REG_SZ in hex
            return text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\0') >= 0
                    ? "hex(1):" + hex((text + "\0").getBytes(StandardCharsets.UTF_16LE)) : quoted(text);
        }
        if (value instanceof Integer i) {
            return String.format("dword:%08x", i);
        }
        if (value instanceof Long l) {
            return "hex(b):" + hex(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(l).array());
        }
        if (value instanceof List<?> list) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (Object item : list) {
                bytes.writeBytes((strings.apply(String.valueOf(item)) + "\0").getBytes(StandardCharsets.UTF_16LE));
            }
            bytes.writeBytes("\0".getBytes(StandardCharsets.UTF_16LE));
            return "hex(7):" + hex(bytes.toByteArray());
        }
        if (value instanceof byte[] b) {
            return "hex:" + hex(b);
        }
        return quoted(strings.apply(String.valueOf(value)));
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < bytes.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(String.format("%02x", bytes[i] & 0xff));
        }
        return out.toString();
    }
}

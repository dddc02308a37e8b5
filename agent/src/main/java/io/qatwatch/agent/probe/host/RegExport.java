package io.qatwatch.agent.probe.host;

import io.qatwatch.agent.probe.ProbeProblems;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@code reg export} file (UTF-16LE with BOM as Windows writes it, or UTF-8) read into memory: the
 * offline registry for {@code --registry FILE.reg}. Only HKEY_LOCAL_MACHINE keys are kept. Several exports
 * concatenated into one file are accepted.
 */
public final class RegExport implements RegistryView {

    static final String HEADER = "Windows Registry Editor Version 5.00";
    private static final String CURRENT_CONTROL_SET = "SYSTEM\\CURRENTCONTROLSET";
    private static final int MAX_REPORTED_LINES = 5;

    /** Keys by upper-case path: the path as written, and its values. */
    private final TreeMap<String, Key> keys;
    /** Offline hives exported from another system name the current control set {@code ControlSet001}. */
    private final boolean controlSet001Only;

    private record Key(String path, Map<String, Object> values) {
    }

    private RegExport(TreeMap<String, Key> keys) {
        this.keys = keys;
        this.controlSet001Only = keys.keySet().stream().noneMatch(k -> k.startsWith(CURRENT_CONTROL_SET));
    }

    /** Parses an export; lines that cannot be parsed are reported (with their number) and skipped. */
    public static RegExport parse(byte[] bytes, String fileName, ProbeProblems problems) {
        return parse(decode(bytes), fileName, problems);
    }

    static String decode(byte[] bytes) {
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xfe) {
            return new String(bytes, 2, bytes.length - 2, StandardCharsets.UTF_16LE);
        }
        if (bytes.length >= 3 && (bytes[0] & 0xff) == 0xef && (bytes[1] & 0xff) == 0xbb && (bytes[2] & 0xff) == 0xbf) {
            return new String(bytes, 3, bytes.length - 3, StandardCharsets.UTF_8);
        }
        if (bytes.length >= 2 && bytes[1] == 0 && bytes[0] != 0) {
            return new String(bytes, StandardCharsets.UTF_16LE);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static RegExport parse(String text, String fileName, ProbeProblems problems) {
        TreeMap<String, Key> keys = new TreeMap<>();
        List<String> bad = new ArrayList<>();
        String[] lines = text.replace("\uFEFF", "").split("\r?\n");
        String firstLine = Arrays.stream(lines).map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
        if (!firstLine.equals(HEADER) && !firstLine.equals("REGEDIT4")) {
            problems.add(fileName + " does not start with '" + HEADER + "' (found '" + abbreviate(firstLine)
                    + "'): is it a reg export file?");
        }
        Key current = null;
        for (int i = 0; i < lines.length; i++) {
            int lineNumber = i + 1;
            StringBuilder logical = new StringBuilder(lines[i].strip());
            while (logical.length() > 0 && logical.charAt(logical.length() - 1) == '\\' && i + 1 < lines.length
                    && !logical.toString().startsWith("[")) {
                logical.setLength(logical.length() - 1);
                logical.append(lines[++i].strip());
            }
            String line = logical.toString();
            if (line.isEmpty() || line.startsWith(";") || line.equals(HEADER) || line.equals("REGEDIT4")) {
                continue;
            }
            if (line.startsWith("[")) {
                current = null;
                if (!line.endsWith("]")) {
                    bad.add("line " + lineNumber + ": unterminated key '" + abbreviate(line) + "'");
                    continue;
                }
                String path = hklmPath(line.substring(1, line.length() - 1));
                if (path != null) {
                    current = keys.computeIfAbsent(path.toUpperCase(Locale.ROOT),
                            k -> new Key(path, new LinkedHashMap<>()));
                }
                continue;
            }
            if (current == null) {
                continue;
            }
            try {
                parseValue(line, current.values());
            } catch (IllegalArgumentException e) {
                bad.add("line " + lineNumber + ": " + e.getMessage());
            }
        }
        if (!bad.isEmpty()) {
            String shown = String.join("; ", bad.subList(0, Math.min(bad.size(), MAX_REPORTED_LINES)));
            problems.add(fileName + ": " + bad.size() + " malformed line(s) skipped: " + shown
                    + (bad.size() > MAX_REPORTED_LINES ? "; ..." : ""));
        }
        return new RegExport(keys);
    }

    /** {@code HKEY_LOCAL_MACHINE\SYSTEM\...} to {@code SYSTEM\...}; null for other hives and deletions. */
    private static String hklmPath(String name) {
        for (String prefix : List.of("HKEY_LOCAL_MACHINE\\", "HKLM\\")) {
            if (name.regionMatches(true, 0, prefix, 0, prefix.length())) {
                return name.substring(prefix.length());
            }
        }
        return null;
    }

    /** One {@code "name"=data} or {@code @=data} line into the values. */
    static void parseValue(String line, Map<String, Object> values) {
        String name;
        int pos;
        if (line.startsWith("@=")) {
            name = "";
            pos = 2;
        } else if (line.startsWith("\"")) {
            int[] end = new int[1];
            name = quoted(line, 0, end);
            pos = end[0];
            if (pos >= line.length() || line.charAt(pos) != '=') {
                throw new IllegalArgumentException("expected '=' after the value name in '" + abbreviate(line) + "'");
            }
            pos++;
        } else {
            throw new IllegalArgumentException("not a key, a value or a comment: '" + abbreviate(line) + "'");
        }
        String data = line.substring(pos).strip();
        if (data.equals("-")) {
            values.remove(name);
            return;
        }
        values.put(name, parseData(data, line));
    }

    private static Object parseData(String data, String line) {
        if (data.startsWith("\"")) {
            int[] end = new int[1];
            String s = quoted(data, 0, end);
            if (end[0] != data.length()) {
                throw new IllegalArgumentException("text after the closing quote in '" + abbreviate(line) + "'");
            }
            return s;
        }
        String lower = data.toLowerCase(Locale.ROOT);
        if (lower.startsWith("dword:")) {
            String hex = data.substring(6).strip();
            if (hex.isEmpty() || hex.length() > 8) {
                throw new IllegalArgumentException("bad dword '" + abbreviate(data) + "'");
            }
            try {
                return Integer.parseUnsignedInt(hex, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad dword '" + abbreviate(data) + "'");
            }
        }
        if (lower.startsWith("hex:")) {
            return hexBytes(data.substring(4), line);
        }
        if (lower.startsWith("hex(")) {
            int close = data.indexOf("):");
            if (close < 0) {
                throw new IllegalArgumentException("bad typed hex value in '" + abbreviate(line) + "'");
            }
            String type = lower.substring(4, close);
            byte[] bytes = hexBytes(data.substring(close + 2), line);
            return switch (type) {
                case "2", "1" -> utf16(bytes);
                case "7" -> multiString(bytes);
                case "4" -> bytes.length >= 4 ? ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt() : bytes;
                case "b" -> bytes.length >= 8 ? ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong() : bytes;
                default -> bytes;
            };
        }
        throw new IllegalArgumentException("unknown value data '" + abbreviate(data) + "'");
    }

    private static String quoted(String s, int start, int[] end) {
        StringBuilder out = new StringBuilder();
        for (int i = start + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                out.append(s.charAt(++i));
            } else if (c == '"') {
                end[0] = i + 1;
                return out.toString();
            } else {
                out.append(c);
            }
        }
        throw new IllegalArgumentException("unterminated string in '" + abbreviate(s) + "'");
    }

    private static byte[] hexBytes(String list, String line) {
        String compact = list.replaceAll("\\s", "");
        if (compact.isEmpty()) {
            return new byte[0];
        }
        String[] parts = compact.split(",");
        byte[] bytes = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].length() != 2) {
                throw new IllegalArgumentException("bad hex byte '" + parts[i] + "' in '" + abbreviate(line) + "'");
            }
            try {
                bytes[i] = (byte) Integer.parseInt(parts[i], 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad hex byte '" + parts[i] + "' in '" + abbreviate(line) + "'");
            }
        }
        return bytes;
    }

    private static String utf16(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_16LE);
        int nul = s.indexOf('\0');
        return nul < 0 ? s : s.substring(0, nul);
    }

    private static List<String> multiString(byte[] bytes) {
        List<String> strings = new ArrayList<>();
        for (String part : new String(bytes, StandardCharsets.UTF_16LE).split("\0")) {
            if (!part.isEmpty()) {
                strings.add(part);
            }
        }
        return strings;
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    @Override
    public List<String> subKeys(String path) {
        String prefix = resolve(path).toUpperCase(Locale.ROOT) + "\\";
        TreeSet<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<String, Key> e : keys.tailMap(prefix).entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                break;
            }
            String rest = e.getValue().path().substring(prefix.length());
            int slash = rest.indexOf('\\');
            names.add(slash < 0 ? rest : rest.substring(0, slash));
        }
        return List.copyOf(names);
    }

    @Override
    public Map<String, Object> values(String path) {
        Key key = keys.get(resolve(path).toUpperCase(Locale.ROOT));
        return key == null ? Map.of() : key.values();
    }

    private String resolve(String path) {
        if (controlSet001Only && path.toUpperCase(Locale.ROOT).startsWith(CURRENT_CONTROL_SET)) {
            return "SYSTEM\\ControlSet001" + path.substring(CURRENT_CONTROL_SET.length());
        }
        return path;
    }
}

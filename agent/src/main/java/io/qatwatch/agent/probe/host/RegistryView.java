package io.qatwatch.agent.probe.host;

import java.util.List;
import java.util.Map;

/**
 * The part of the Windows registry under {@code HKEY_LOCAL_MACHINE} the probe reads: live through JNA or
 * from a {@code reg export} file. Every Windows registry read of the probe goes through here. Paths are
 * relative to HKLM with backslashes ({@code SYSTEM\CurrentControlSet\Enum\PCI}) and case-insensitive.
 */
public interface RegistryView {

    /** Names of the key's subkeys, sorted; empty when the key does not exist. */
    List<String> subKeys(String path);

    /**
     * The key's values by name ({@code ""} for the default value): {@link String} for REG_SZ and
     * REG_EXPAND_SZ, {@link Integer} for REG_DWORD, {@link Long} for REG_QWORD, {@code List<String>} for
     * REG_MULTI_SZ, {@code byte[]} otherwise. Empty when the key does not exist.
     */
    Map<String, Object> values(String path);

    /** The value as text (a REG_SZ, or the first string of a REG_MULTI_SZ), null when absent. */
    default String string(String path, String name) {
        Object value = get(values(path), name);
        if (value instanceof String s) {
            return s.strip();
        }
        if (value instanceof List<?> list && !list.isEmpty()) {
            return String.valueOf(list.get(0)).strip();
        }
        return null;
    }

    /** A REG_MULTI_SZ value (a REG_SZ gives a list of one), empty when absent. */
    default List<String> strings(String path, String name) {
        Object value = get(values(path), name);
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return value instanceof String s ? List.of(s) : List.of();
    }

    /** A REG_DWORD value, null when absent or of another type. */
    default Integer dword(String path, String name) {
        return get(values(path), name) instanceof Integer i ? i : null;
    }

    /** Value names are case-insensitive in the registry. */
    private static Object get(Map<String, Object> values, String name) {
        Object exact = values.get(name);
        if (exact != null) {
            return exact;
        }
        return values.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }
}

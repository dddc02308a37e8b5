package io.qatwatch.agent.probe.host;

import com.sun.jna.platform.win32.Advapi32Util;
import com.sun.jna.platform.win32.WinReg;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The live Windows registry (HKLM) through JNA; a key that cannot be opened throws, the caller reports it. */
public final class LiveRegistry implements RegistryView {

    @Override
    public List<String> subKeys(String path) {
        if (!Advapi32Util.registryKeyExists(WinReg.HKEY_LOCAL_MACHINE, path)) {
            return List.of();
        }
        return Arrays.stream(Advapi32Util.registryGetKeys(WinReg.HKEY_LOCAL_MACHINE, path))
                .sorted(String.CASE_INSENSITIVE_ORDER).toList();
    }

    @Override
    public Map<String, Object> values(String path) {
        if (!Advapi32Util.registryKeyExists(WinReg.HKEY_LOCAL_MACHINE, path)) {
            return Map.of();
        }
        Map<String, Object> values = new LinkedHashMap<>();
        Advapi32Util.registryGetValues(WinReg.HKEY_LOCAL_MACHINE, path).forEach((name, value) ->
                values.put(name, value instanceof String[] multi ? List.of(multi) : value));
        return values;
    }
}

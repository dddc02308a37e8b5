package io.qatwatch.agent.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.qatwatch.agent.probe.ProbeProblems;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegExportTest {

    static final String EXPORT = """
            Windows Registry Editor Version 5.00

            [HKEY_LOCAL_MACHINE\\SYSTEM\\ControlSet001\\Services\\icp_qat4]
            "ImagePath"=hex(2):5c,00,53,00,79,00,73,00,74,00,65,00,6d,00,52,00,6f,00,6f,00,\\
              74,00,5c,00,71,00,2e,00,73,00,79,00,73,00,00,00
            "Start"=dword:00000003
            "Display \\"Name\\""="Intel(R) QAT \\\\ 4xxx"

            [HKEY_LOCAL_MACHINE\\SYSTEM\\ControlSet001\\Enum\\PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40\\6&1&0&8]
            "CompatibleIDs"=hex(7):50,00,43,00,49,00,00,00,41,00,00,00,00,00
            @="default"

            [HKEY_CURRENT_USER\\Software\\Ignored]
            "x"="y"
            """;

    @Test
    void readsStringsDwordsExpandAndMultiStringsWithContinuationLines() {
        ProbeProblems problems = new ProbeProblems();
        RegExport reg = RegExport.parse(EXPORT.replace("\n", "\r\n"), "test.reg", problems);

        String service = "SYSTEM\\ControlSet001\\Services\\icp_qat4";
        assertThat(problems.list()).isEmpty();
        assertThat(reg.string(service, "ImagePath")).isEqualTo("\\SystemRoot\\q.sys");
        assertThat(reg.dword(service, "start")).isEqualTo(3);
        assertThat(reg.string(service, "Display \"Name\"")).isEqualTo("Intel(R) QAT \\ 4xxx");
        String device = "SYSTEM\\ControlSet001\\Enum\\PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40\\6&1&0&8";
        assertThat(reg.strings(device, "CompatibleIDs")).containsExactly("PCI", "A");
        assertThat(reg.string(device, "")).isEqualTo("default");
    }

    @Test
    void currentControlSetFindsControlSet001InAnExportFromAnOfflineHive() {
        RegExport reg = RegExport.parse(EXPORT, "test.reg", new ProbeProblems());

        assertThat(reg.subKeys("SYSTEM\\CurrentControlSet\\Enum\\PCI"))
                .containsExactly("VEN_8086&DEV_4940&SUBSYS_00008086&REV_40");
        assertThat(reg.subKeys("system\\currentcontrolset\\services")).containsExactly("icp_qat4");
        assertThat(reg.subKeys("SOFTWARE")).isEmpty();
        assertThat(reg.values("HKEY_CURRENT_USER\\Software\\Ignored")).isEmpty();
    }

    @Test
    void decodesUtf16LittleEndianWithBomAndUtf8() {
        String text = "Windows Registry Editor Version 5.00\r\n";
        byte[] utf16 = ("\uFEFF" + text).getBytes(StandardCharsets.UTF_16LE);

        assertThat(RegExport.decode(utf16)).isEqualTo(text);
        assertThat(RegExport.decode(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(text);
    }

    @Test
    void reportsMalformedLinesWithTheirNumbersAndKeepsTheRest() {
        ProbeProblems problems = new ProbeProblems();
        RegExport reg = RegExport.parse("""
                Windows Registry Editor Version 5.00

                [HKEY_LOCAL_MACHINE\\HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0]
                "VendorIdentifier"=GenuineIntel
                "ProcessorNameString"="Intel(R) Xeon(R) Gold 6430"
                "~MHz"=dword:zz
                """, "bad.reg", problems);

        assertThat(reg.string("HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0", "ProcessorNameString"))
                .isEqualTo("Intel(R) Xeon(R) Gold 6430");
        assertThat(problems.summary()).startsWith("bad.reg: 2 malformed line(s) skipped: line 4: ")
                .contains("line 6: bad dword 'dword:zz'");
    }

    @Test
    void aFileThatIsNotAnExportIsReported() {
        ProbeProblems problems = new ProbeProblems();
        RegExport.parse("{\"json\": true}", "notreg.json", problems);

        assertThat(problems.list().get(0)).contains("notreg.json does not start with 'Windows Registry Editor Version 5.00'");
    }

    @Test
    void theWindowsFixtureIsUtf16WithBomAsRegExportWritesIt() throws Exception {
        byte[] bytes = Files.readAllBytes(Path.of("src/test/resources/hosts/windows-4xxx-icp-qat4/registry.reg"));
        ProbeProblems problems = new ProbeProblems();

        RegExport reg = RegExport.parse(bytes, "registry.reg", problems);

        assertThat(bytes[0] & 0xff).isEqualTo(0xff);
        assertThat(problems.list()).isEmpty();
        assertThat(reg.subKeys("HARDWARE\\DESCRIPTION\\System\\CentralProcessor")).hasSize(8);
        assertThat(reg.strings("SYSTEM\\CurrentControlSet\\Enum\\PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40"
                + "\\6&2b5e1c4f&0&00000008", "CompatibleIDs")).contains("PCI\\CC_0B4000");
        assertThat(List.of(reg.string("SYSTEM\\CurrentControlSet\\Services\\icp_qat4", "ImagePath")))
                .containsExactly("\\SystemRoot\\System32\\drivers\\icp_qat4.sys");
    }
}

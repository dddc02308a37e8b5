package io.qatwatch.agent.probe.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VirtualizationTest {

    @ParameterizedTest(name = "{0} / {1} / {2} -> {5}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            VMware, Inc.          | VMware Virtual Platform         | Phoenix Technologies LTD | false | -         | VMware
            VMware, Inc.          | VMware7,1                       | VMware, Inc.             | false | -         | VMware
            Microsoft Corporation | Virtual Machine                 | Microsoft Corporation    | true  | -         | Hyper-V
            Microsoft Corporation | Surface Pro                     | Microsoft Corporation    | false | -         | -
            QEMU                  | Standard PC (Q35 + ICH9, 2009)  | SeaBIOS                  | true  | -         | KVM
            Red Hat               | KVM                             | SeaBIOS                  | true  | -         | KVM
            Amazon EC2            | m6i.xlarge                      | Amazon EC2               | true  | -         | KVM
            Amazon EC2            | m6i.metal                       | Amazon EC2               | false | -         | -
            Amazon EC2            | m7i.metal-24xl                  | Amazon EC2               | false | -         | -
            Amazon EC2            | m7i.metal-48xl                  | Amazon EC2               | false | -         | -
            Amazon EC2            | r7iz.metal-16xl                 | Amazon EC2               | false | -         | -
            Amazon EC2            | mac2-m2pro.metal                | Amazon EC2               | false | -         | -
            Amazon EC2            | m7i.48xlarge                    | Amazon EC2               | true  | -         | KVM
            Amazon EC2            | m7i.metal-48xl                  | Amazon EC2               | true  | -         | KVM
            Xen                   | HVM domU                        | Xen                      | true  | -         | Xen
            Google                | Google Compute Engine           | Google                   | true  | -         | KVM
            innotek GmbH          | VirtualBox                      | innotek GmbH             | true  | -         | VirtualBox
            Dell Inc.             | PowerEdge R760                  | Dell Inc.                | false | -         | -
            -                     | -                               | -                        | true  | 1af4      | KVM
            -                     | -                               | -                        | false | 15ad      | VMware
            -                     | -                               | -                        | true  | 1022      | Unknown
            -                     | -                               | -                        | false | 1022      | -
            """)
    void namesTheHypervisorFromFirmwareStringsThenPciVendorsThenTheCpuFlag(String manufacturer, String model,
            String bios, boolean hypervisorFlag, String pciVendor, String expected) {
        CpuInfo cpu = new CpuInfo("GenuineIntel", "Intel(R) Xeon(R)", 1, 4, hypervisorFlag);
        Set<String> vendors = pciVendor == null ? Set.of() : Set.of(pciVendor);

        assertThat(Virtualization.detect(new Virtualization.Signals(cpu, manufacturer, model, bios, vendors)))
                .isEqualTo(expected);
    }
}

package io.qatwatch.protocol;

import java.util.List;

/** Intel QAT on this host: PCI functions, the software stack found, and whether compression can run. */
public record QatFacts(List<QatDevice> devices, QatSoftware software, boolean compressionReady) {

    public QatFacts {
        devices = devices == null ? List.of() : List.copyOf(devices);
    }
}

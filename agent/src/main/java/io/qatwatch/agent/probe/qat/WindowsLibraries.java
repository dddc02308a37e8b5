package io.qatwatch.agent.probe.qat;

import io.qatwatch.agent.probe.ProbeProblems;
import io.qatwatch.protocol.QatSoftware.SoftwareItem;
import java.util.List;

/** Finds the QAT libraries SQL Server loads ({@code qatzip.dll}, {@code isa-l.dll}) with their file versions. */
public interface WindowsLibraries {

    /** An export file holds no files: nothing can be found offline. */
    WindowsLibraries NONE = problems -> List.of();

    List<SoftwareItem> find(ProbeProblems problems);
}

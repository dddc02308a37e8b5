package io.qatwatch.collector.web;

import java.nio.file.Path;
import java.util.List;

/** The server's PEM certificate chain and private key ({@code tls:}); both null means plain HTTP. */
public record TlsConfig(Path certFile, Path keyFile) {

    public static final TlsConfig PLAIN = new TlsConfig(null, null);

    public boolean enabled() {
        return certFile != null || keyFile != null;
    }

    /** Adds each problem, naming its key. */
    public void validate(List<String> problems) {
        if (enabled() && (certFile == null || keyFile == null)) {
            problems.add("tls: set both tls.certFile and tls.keyFile (PEM), or neither for plain HTTP");
        }
    }
}

package io.qatwatch.collector.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A PEM certificate for 127.0.0.1 and its key, made by openssl for one test's HTTPS server. */
public record SelfSignedCertificate(Path cert, Path key) {

    /** Writes {@code cert.pem} and {@code key.pem} into {@code dir}. */
    public static SelfSignedCertificate in(Path dir) throws Exception {
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", key.toString(), "-out", cert.toString()).redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(openssl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(openssl.exitValue()).as(output).isZero();
        return new SelfSignedCertificate(cert, key);
    }
}

package io.qatwatch.protocol;

/** The qatwatch version, read from the jar manifest; {@code dev} when run from classes. */
public final class Version {

    private Version() {
    }

    public static String current() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}

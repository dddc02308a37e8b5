package io.qatwatch.agent.cli;

/** Log format of the long-running commands (slf4j-simple to stderr), unless the user set it. */
final class LogSetup {

    private LogSetup() {
    }

    static void daemon() {
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSZ");
        setDefault("org.slf4j.simpleLogger.showThreadName", "false");
        setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
        setDefault("org.slf4j.simpleLogger.log.io.netty", "warn");
        setDefault("org.slf4j.simpleLogger.log.io.vertx", "warn");
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}

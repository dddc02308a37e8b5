package io.qatwatch.agent.cli;

import io.qatwatch.protocol.LogTimes;

/** Log format of the agent daemon (slf4j-simple to stderr, each line with its UTC time), unless the user set it. */
final class LogSetup {

    private LogSetup() {
    }

    static void daemon() {
        setDefault("org.slf4j.simpleLogger.showThreadName", "false");
        setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
        setDefault("org.slf4j.simpleLogger.log.io.netty", "warn");
        setDefault("org.slf4j.simpleLogger.log.io.vertx", "warn");
        LogTimes.utc();
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}

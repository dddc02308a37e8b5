package io.qatwatch.agent.probe.sqlserver;

/** The parts of a SQL Server instance the agent reads, each on its own schedule. */
public enum SqlSection {
    SERVER, CONFIGURATION, ACCELERATORS, DATABASES, BACKUP_HISTORY, RUNNING_BACKUPS, CERTIFICATES
}

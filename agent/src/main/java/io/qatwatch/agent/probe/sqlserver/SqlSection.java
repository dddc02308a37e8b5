package io.qatwatch.agent.probe.sqlserver;

/**
 * The parts of a SQL Server instance the agent reads, each on its own schedule. JOBS: SQL Server Agent's jobs, steps and
 * schedules; JOB_HISTORY: their runs; COMMAND_LOG: Ola Hallengren's CommandLog; RESTORES: msdb's restore history.
 */
public enum SqlSection {
    SERVER, CONFIGURATION, ACCELERATORS, DATABASES, BACKUP_HISTORY, RUNNING_BACKUPS, CERTIFICATES, JOBS, JOB_HISTORY, COMMAND_LOG,
    RESTORES
}

package io.qatwatch.agent.probe.sqlserver;

/**
 * Where each incremental read of an instance stands: the highest id read so far of each history, null before its first
 * read. Only rows above a mark are read.
 *
 * @param backupSetId     {@code msdb.dbo.backupset.backup_set_id}
 * @param jobHistoryId    {@code msdb.dbo.sysjobhistory.instance_id}
 * @param commandLogId    Ola Hallengren's {@code dbo.CommandLog.ID}
 * @param restoreHistoryId {@code msdb.dbo.restorehistory.restore_history_id}
 */
public record HistoryMarks(Long backupSetId, Long jobHistoryId, Long commandLogId, Long restoreHistoryId) {

    /** No history read yet. */
    public static final HistoryMarks NONE = new HistoryMarks(null, null, null, null);

    /** Only the backup history's mark known (callers from before issue 15). */
    public static HistoryMarks backupsOnly(Long backupSetId) {
        return new HistoryMarks(backupSetId, null, null, null);
    }
}

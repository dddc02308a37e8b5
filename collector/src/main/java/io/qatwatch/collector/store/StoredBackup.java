package io.qatwatch.collector.store;

import io.qatwatch.protocol.SqlInstanceSnapshot.BackupRecord;

/** A backup as stored: the record and the host and instance that reported it. */
public record StoredBackup(String host, String instance, BackupRecord backup) {
}

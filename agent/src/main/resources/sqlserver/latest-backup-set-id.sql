-- qatwatch query: latest-backup-set-id.sql
-- Purpose:    the highest backup_set_id: the top of each cycle's backup-history page (so the mark passes other servers' rows),
--             and where the one-shot probe starts so that it reads the most recent backups instead of the oldest
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.backupset IN msdb
-- Source:     sql-docs system-tables/backupset-transact-sql.md (backup_set_id: identity, primary key).
-- Columns:    latest_backup_set_id int (NULL when msdb holds no backup)
SELECT MAX(bs.backup_set_id) AS latest_backup_set_id
FROM msdb.dbo.backupset AS bs;

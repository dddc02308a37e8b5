-- qatwatch query: latest-backup-set-id.sql
-- Purpose:    the highest backup_set_id, so that the one-shot probe reads the most recent backups instead of the oldest
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.backupset IN msdb
-- Source:     sql-docs system-tables/backupset-transact-sql.md (backup_set_id: identity, primary key).
-- Columns:    latest_backup_set_id int (NULL when msdb holds no backup)
SELECT MAX(bs.backup_set_id) AS latest_backup_set_id
FROM msdb.dbo.backupset AS bs;

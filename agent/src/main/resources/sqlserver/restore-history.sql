-- qatwatch query: restore-history.sql
-- Purpose:    one page of restores this instance performed above the high-water mark, oldest first, each with the backup
--             set it restored: which server and database the backup came from, so a test restore anywhere in the fleet
--             counts for the database whose backup it was
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.restorehistory IN msdb; SELECT ON dbo.backupset IN msdb
-- Source:     sql-docs system-tables/restorehistory-transact-sql.md (restore_history_id int identity primary key;
--             restore_date datetime "of the completion of the restore operation", local, no time-zone column;
--             destination_database_name nvarchar(128); backup_set_id references backupset; restore_type char(1) D database,
--             F file, G filegroup, I differential, L log, V verifyonly), backupset-transact-sql.md (server_name,
--             database_name, database_guid, family_guid, backup_finish_date with its time_zone, type); "Backup history and
--             header information" (a RESTORE writes the source's backup set into this msdb).
-- Columns:    restore_history_id int, destination_database_name nvarchar(128), restore_date datetime, restore_type char(1),
--             source_server nvarchar(128), source_database nvarchar(128), source_database_guid uniqueidentifier,
--             family_guid uniqueidentifier, backup_finish_date datetime, time_zone smallint, backup_type char(1),
--             server_utc_offset_minutes int
-- The page size (TOP) and the high-water mark are numbers the agent formats into the text; nothing else is substituted.
SELECT TOP ({page_size})
    rh.restore_history_id,
    rh.destination_database_name,
    rh.restore_date,
    rh.restore_type,
    bs.server_name AS source_server,
    bs.database_name AS source_database,
    bs.database_guid AS source_database_guid,
    bs.family_guid,
    bs.backup_finish_date,
    bs.time_zone,
    bs.type AS backup_type,
    DATEPART(TZOFFSET, SYSDATETIMEOFFSET()) AS server_utc_offset_minutes
FROM msdb.dbo.restorehistory AS rh
LEFT JOIN msdb.dbo.backupset AS bs ON bs.backup_set_id = rh.backup_set_id
WHERE rh.restore_history_id > {after_restore_history_id}
ORDER BY rh.restore_history_id;

-- qatwatch query: backup-history-2022.sql
-- Purpose:    one page of backup history above the high-water mark, oldest first, with the compression algorithm of each backup
-- Minimum:    16 (SQL Server 2022; backupset.compression_algorithm does not exist before)
-- Permission: SELECT on msdb.dbo.backupset and msdb.dbo.backupmediafamily
-- Columns:    backup_set_id int, database_name nvarchar(128), database_guid uniqueidentifier, type char(1), is_copy_only bit,
--             backup_start_date datetime, backup_finish_date datetime, time_zone smallint, backup_size numeric(20,0),
--             compressed_backup_size numeric(20,0), compression_algorithm nvarchar(32), has_backup_checksums bit,
--             key_algorithm nvarchar(32), encryptor_thumbprint varbinary(20), encryptor_type nvarchar(32),
--             device_type tinyint, physical_device_name nvarchar(260)
-- The page size (TOP) and the high-water mark are numbers the agent formats into the text; nothing else is substituted.
-- A striped backup has one media family per stripe: the first family stands for the set, so each set is one row.
SELECT TOP ({page_size})
    bs.backup_set_id,
    bs.database_name,
    bs.database_guid,
    bs.type,
    bs.is_copy_only,
    bs.backup_start_date,
    bs.backup_finish_date,
    bs.time_zone,
    bs.backup_size,
    bs.compressed_backup_size,
    bs.compression_algorithm,
    bs.has_backup_checksums,
    bs.key_algorithm,
    bs.encryptor_thumbprint,
    bs.encryptor_type,
    mf.device_type,
    mf.physical_device_name
FROM msdb.dbo.backupset AS bs
OUTER APPLY (
    SELECT TOP (1) f.device_type, f.physical_device_name
    FROM msdb.dbo.backupmediafamily AS f
    WHERE f.media_set_id = bs.media_set_id
    ORDER BY f.family_sequence_number, f.mirror
) AS mf
WHERE bs.backup_set_id > {after_backup_set_id}
ORDER BY bs.backup_set_id;

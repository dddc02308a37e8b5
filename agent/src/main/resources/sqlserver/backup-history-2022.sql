-- qatwatch query: backup-history-2022.sql
-- Purpose:    one page of backup history above the high-water mark, oldest first, with the compression algorithm of each backup
-- Minimum:    16 (SQL Server 2022; backupset.compression_algorithm does not exist before)
-- Permission: SELECT ON dbo.backupset IN msdb; SELECT ON dbo.backupmediafamily IN msdb
-- Source:     sql-docs system-tables/backupset-transact-sql.md (types; time_zone in 15-minute steps, 127 unknown; key_algorithm
--             NO_Encryption for an unencrypted backup; is_snapshot: "For VSS backups, backup_size is an estimated value";
--             family_guid kept through restores, database_guid new on restore; server_name, the server that ran the backup),
--             backupmediafamily-transact-sql.md (device_type 2/102 disk, 5/105 tape, 7 virtual device, 9 URL), "Backup history
--             and header information" (a restore writes the source's backup sets into msdb); DBA Dash DBADash/SQL/SQLBackups.sql
--             (server_name = SERVERPROPERTY('SERVERNAME'), compared case-insensitively). The LSNs are numeric(25,0) (wider than a
--             bigint: read as decimals, sent as their digits); begins_log_chain: "the first in a continuous chain of log backups";
--             differential_base_lsn / differential_base_guid name a differential's base full (issue 31's log-chain checks):
--             differential_base_guid is the base full's backup_set_uuid ("Unique backup set identification number that
--             identifies the backup set"), so both are read.
-- Columns:    backup_set_id int, database_name nvarchar(128), database_guid uniqueidentifier, type char(1), is_copy_only bit,
--             backup_start_date datetime, backup_finish_date datetime, time_zone smallint, backup_size numeric(20,0),
--             compressed_backup_size numeric(20,0), compression_algorithm nvarchar(32), has_backup_checksums bit,
--             key_algorithm nvarchar(32), encryptor_thumbprint varbinary(20), encryptor_type nvarchar(32),
--             device_type tinyint, physical_device_name nvarchar(260), server_name nvarchar(128), family_guid uniqueidentifier,
--             is_snapshot bit, media_family_count int, first_lsn numeric(25,0), last_lsn numeric(25,0),
--             checkpoint_lsn numeric(25,0), database_backup_lsn numeric(25,0), differential_base_lsn numeric(25,0),
--             differential_base_guid uniqueidentifier, recovery_model nvarchar(60), begins_log_chain bit, has_incomplete_metadata bit,
--             backup_set_uuid uniqueidentifier
-- The page size (TOP), the high-water mark and the top of the range are numbers the agent formats into the text; nothing
-- else is substituted.
-- A striped backup has one media family per stripe: the first family stands for the set, so each set is one row, and
-- media_family_count counts the stripes (backupmediafamily: one row per family and mirror; family_sequence_number numbers
-- the families, mirror 0-3 the copies), which is what a URL's size ceiling divides by.
-- Rows whose server_name is not this instance's SERVERPROPERTY('ServerName') were written by RESTORE from another server's
-- history: the WHERE leaves them on the server (UPPER on both sides: compared case-insensitively, as DBA Dash does, under
-- any collation). So that the high-water mark still passes them, the agent first asks for the highest backup_set_id (the
-- latest-backup-set-id query) and reads only up to it ({up_to_backup_set_id}): a short page means every row up to that
-- id was looked at, and the mark moves to it even when the last rows were another server's; a full page moves it to its
-- last row. Rows above the top are read next cycle.
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
    mf.physical_device_name,
    bs.server_name,
    bs.family_guid,
    bs.is_snapshot,
    mc.media_family_count,
    bs.first_lsn,
    bs.last_lsn,
    bs.checkpoint_lsn,
    bs.database_backup_lsn,
    bs.differential_base_lsn,
    bs.differential_base_guid,
    bs.recovery_model,
    bs.begins_log_chain,
    bs.has_incomplete_metadata,
    bs.backup_set_uuid
FROM msdb.dbo.backupset AS bs
OUTER APPLY (
    SELECT TOP (1) f.device_type, f.physical_device_name
    FROM msdb.dbo.backupmediafamily AS f
    WHERE f.media_set_id = bs.media_set_id
    ORDER BY f.family_sequence_number, f.mirror
) AS mf
OUTER APPLY (
    SELECT COUNT(DISTINCT c.family_sequence_number) AS media_family_count
    FROM msdb.dbo.backupmediafamily AS c
    WHERE c.media_set_id = bs.media_set_id
) AS mc
WHERE bs.backup_set_id > {after_backup_set_id}
  AND bs.backup_set_id <= {up_to_backup_set_id}
  AND UPPER(bs.server_name) = UPPER(CAST(SERVERPROPERTY('ServerName') AS nvarchar(128)))
ORDER BY bs.backup_set_id;

-- qatwatch query: guids-from-backups.sql
-- Purpose:    database_guid and family_guid of each database from the newest backup set this server took of it since the
--             database was created; sent instead of the database-guids query when sys.databases shows an AUTO_CLOSE database, so
--             that no database is opened to name it
-- Minimum:    13 (SQL Server 2016)
-- Permission: public; SELECT ON dbo.backupset IN msdb
-- Source:     sql-docs sys-database-recovery-status-transact-sql.md ("If the database is not opened, the Database Engine
--             tries to start it", which is why that view is not read here); system-tables/backupset-transact-sql.md
--             (database_guid: "Unique database ID where the backup was taken. When the database is restored, a new value
--             is assigned."; family_guid: "Unique ID of the original database at creation. This value stays the same when
--             the database is restored, even to a different name."; server_name: the server that ran the backup;
--             backup_start_date local time); sys-databases-transact-sql.md (create_date: "Date the database was created or
--             renamed", local time; a catalog view in master, read without opening any database).
-- Columns:    database_id int, database_name nvarchar(128), database_guid uniqueidentifier, family_guid uniqueidentifier
-- msdb and sys.databases are all this reads: an AUTO_CLOSE database stays closed. A backup started before create_date was
-- taken of an earlier database of that name (or before a rename), so it does not name this one; a database with no backup
-- since then has NULL GUIDs and is asked about again next inventory cycle. Another server's sets (written into msdb by a
-- RESTORE) are left out as in the backup-history query.
SELECT
    d.database_id,
    d.name AS database_name,
    g.database_guid,
    g.family_guid
FROM sys.databases AS d
OUTER APPLY (
    SELECT TOP (1) bs.database_guid, bs.family_guid
    FROM msdb.dbo.backupset AS bs
    WHERE bs.database_name = d.name
      AND bs.backup_start_date >= d.create_date
      AND UPPER(bs.server_name) = UPPER(CAST(SERVERPROPERTY('ServerName') AS nvarchar(128)))
    ORDER BY bs.backup_set_id DESC
) AS g
WHERE d.database_id <> 2
ORDER BY d.name;

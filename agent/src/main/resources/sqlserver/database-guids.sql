-- qatwatch query: database-guids.sql
-- Purpose:    database_guid and family_guid of the online databases; asked only when sys.databases shows a database (by
--             database_id, create_date and state) the agent has not asked about yet, and only when no database on the
--             instance has AUTO_CLOSE on (then the guids-from-backups query names them from msdb instead)
-- Minimum:    13 (SQL Server 2016)
-- Permission: public
-- Source:     sql-docs sys-database-recovery-status-transact-sql.md: one row per database; "If the database is not opened, the
--             Database Engine tries to start it"; rows of other databases need VIEW ANY DATABASE (public by default);
--             database_guid: "RESTORE always generates a new GUID when you restore a database that does not yet exist";
--             family_guid: the backup family of the database, kept through restores.
-- Columns:    database_id int, database_name nvarchar(128), database_guid uniqueidentifier, family_guid uniqueidentifier
-- Offline databases are excluded so that they are not asked about. A filter on is_auto_close_on would not be documented to
-- spare an AUTO_CLOSE database (the view may be evaluated before the join), so the agent does not send this at all while
-- one exists; the filter stays for a database switched to AUTO_CLOSE between the two reads.
SELECT
    d.database_id,
    d.name AS database_name,
    rs.database_guid,
    rs.family_guid
FROM sys.databases AS d
JOIN sys.database_recovery_status AS rs ON rs.database_id = d.database_id
WHERE d.database_id <> 2
  AND d.is_auto_close_on = 0
  AND d.state = 0
ORDER BY d.name;

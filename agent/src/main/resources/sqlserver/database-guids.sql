-- qatwatch query: database-guids.sql
-- Purpose:    database_guid and family_guid of the online databases without AUTO_CLOSE; asked only when sys.databases shows a
--             database (by database_id, create_date and state) the agent has not asked about yet
-- Minimum:    13 (SQL Server 2016)
-- Permission: public
-- Source:     sql-docs sys-database-recovery-status-transact-sql.md: one row per database; "If the database is not opened, the
--             Database Engine tries to start it"; rows of other databases need VIEW ANY DATABASE (public by default);
--             database_guid: "RESTORE always generates a new GUID when you restore a database that does not yet exist";
--             family_guid: the backup family of the database, kept through restores.
-- Columns:    database_id int, database_name nvarchar(128), database_guid uniqueidentifier, family_guid uniqueidentifier
-- AUTO_CLOSE and offline databases are excluded so that they are not asked about; whether the engine still opens them to
-- evaluate the view before the filter applies is not documented, which is why this runs only when something is new.
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

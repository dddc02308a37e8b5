-- qatwatch query: databases.sql
-- Purpose:    every database that can be backed up, with its GUID (backups of a dropped and re-created database differ by it) and recovery model
-- Minimum:    13 (SQL Server 2016)
-- Permission: public (VIEW ANY DATABASE, granted to public by default); database_guid is NULL for databases the login cannot see metadata of
-- Columns:    name nvarchar(128), database_guid uniqueidentifier, recovery_model_desc nvarchar(60), state_desc nvarchar(60)
-- tempdb (database_id 2) is re-created at every start and cannot be backed up.
SELECT
    d.name,
    rs.database_guid,
    d.recovery_model_desc,
    d.state_desc
FROM sys.databases AS d
LEFT JOIN sys.database_recovery_status AS rs ON rs.database_id = d.database_id
WHERE d.database_id <> 2
ORDER BY d.name;

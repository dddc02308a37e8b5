-- qatwatch query: database-encryption.sql
-- Purpose:    TDE state per database (a TDE database's backups are encrypted whatever the BACKUP statement says)
-- Minimum:    13 (SQL Server 2016; encryption_state_desc only exists from 2019, so the number is read and named by the agent)
-- Permission: VIEW SERVER STATE (2016, 2019); VIEW SERVER SECURITY STATE (2022+)
-- Columns:    database_name nvarchar(128), encryption_state int
SELECT
    DB_NAME(k.database_id) AS database_name,
    k.encryption_state
FROM sys.dm_database_encryption_keys AS k
WHERE k.database_id <> 2;

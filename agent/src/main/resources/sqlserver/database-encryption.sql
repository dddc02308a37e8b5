-- qatwatch query: database-encryption.sql
-- Purpose:    TDE state per database, and the certificate or asymmetric key that protects its encryption key (losing it
--             makes every backup of the database unrestorable; a TDE database's backups are encrypted whatever BACKUP says)
-- Minimum:    13 (SQL Server 2016; encryption_state_desc only exists from 2019, so the number is read and named by the agent)
-- Permission: VIEW SERVER STATE (2016-2019); VIEW SERVER SECURITY STATE (2022+)
-- Source:     sql-docs sys-dm-database-encryption-keys-transact-sql.md: encryption_state 0-6, encryptor_thumbprint varbinary(20),
--             encryptor_type nvarchar(32) (from 2012), "requires VIEW SERVER STATE". The 2022 permission is not stated on the
--             page; the view is listed among the security-related DMVs, so the login script grants VIEW SERVER SECURITY STATE.
-- Columns:    database_name nvarchar(128), encryption_state int, encryptor_thumbprint varbinary(20), encryptor_type nvarchar(32)
SELECT
    DB_NAME(k.database_id) AS database_name,
    k.encryption_state,
    k.encryptor_thumbprint,
    k.encryptor_type
FROM sys.dm_database_encryption_keys AS k
WHERE k.database_id <> 2;

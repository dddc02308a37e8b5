-- qatwatch: the read-only SQL Server login the agent's SQL probe connects with.
-- Run once per instance as a sysadmin, with the password passed as a sqlcmd variable (never stored here):
--   sqlcmd -S SQLHOST\INSTANCE -E -i qatwatch-login.sql -v QatwatchPassword="<a long random password>"
-- In SSMS: Query > SQLCMD Mode, then add  :setvar QatwatchPassword "<password>"  at the top.
-- Running it again is harmless: it creates only what is missing and repeats the grants.
--
-- What each permission is for (docs/install.md, "SQL Server login"):
--   VIEW SERVER STATE         sys.dm_server_accelerator_status (QAT hardware or software mode and why),
--                             sys.dm_exec_requests (backups running now, percent_complete),
--                             sys.dm_database_encryption_keys (TDE state). On SQL Server 2022+ the narrower
--                             VIEW SERVER PERFORMANCE STATE covers the first two.
--   VIEW ANY DEFINITION       rows of master.sys.certificates (when a TDE or backup certificate's private
--                             key was last backed up); without it the certificate check sees nothing.
--   SELECT on msdb backupset, backupmediafamily, backupmediaset
--                             the backup history the backup windows are computed from.
-- sys.configurations, sys.databases and SERVERPROPERTY need nothing beyond public.

USE master;
IF NOT EXISTS (SELECT 1 FROM sys.server_principals WHERE name = N'qatwatch')
    CREATE LOGIN qatwatch WITH PASSWORD = N'$(QatwatchPassword)', DEFAULT_DATABASE = master, CHECK_POLICY = ON;
GRANT VIEW SERVER STATE TO qatwatch;
GRANT VIEW ANY DEFINITION TO qatwatch;
GO

USE msdb;
IF NOT EXISTS (SELECT 1 FROM sys.database_principals WHERE name = N'qatwatch')
    CREATE USER qatwatch FOR LOGIN qatwatch;
GRANT SELECT ON dbo.backupset TO qatwatch;
GRANT SELECT ON dbo.backupmediafamily TO qatwatch;
GRANT SELECT ON dbo.backupmediaset TO qatwatch;
GO

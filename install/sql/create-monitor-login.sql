-- qatwatch: the least-privileged SQL login that can read everything the agent's SQL Server probe reads.
-- Run as a sysadmin on each instance (SQL Server 2016 to 2025). Re-running it is safe.
-- Replace the password below, store it in the agent's password file (mode 0600 / ACL to the service account),
-- and never put it in the agent's config file. For Windows authentication, see the end of this file.
--
-- It grants exactly what the queries' "-- Permission:" headers in agent/src/main/resources/sqlserver/*.sql declare,
-- no more (a test compares the two). What each grant is for (docs/sqlserver.md has the table per query):
--   SERVERPROPERTY, sys.configurations, sys.databases,
--   sys.database_recovery_status ................................... public (VIEW ANY DATABASE), nothing to grant
--   sys.dm_server_accelerator_status, sys.dm_exec_requests, sys.dm_hadr_database_replica_states,
--   sys.dm_hadr_availability_replica_states, sys.dm_hadr_name_id_map  VIEW SERVER PERFORMANCE STATE (2022+), VIEW SERVER STATE (2016, 2019)
--   sys.dm_database_encryption_keys (TDE) .......................... VIEW SERVER SECURITY STATE (2022+), VIEW SERVER STATE (2016, 2019)
--   msdb.dbo.backupset, msdb.dbo.backupmediafamily ................. SELECT, through a user in msdb
--   msdb.dbo.restorehistory ........................................ SELECT (restores: was a backup ever restored?)
--   msdb.dbo.sysjobs, sysjobsteps, syscategories, sysjobschedules,
--   sysschedules, sysjobhistory .................................... SELECT (SQL Server Agent jobs, schedules, runs)
--   master.dbo.CommandLog (Ola Hallengren's, when installed) ....... SELECT, through the user in master
--   master.sys.certificates, master.sys.asymmetric_keys ............ VIEW DEFINITION on each one, through a user in master
-- SQL Server Agent's tables are granted one by one rather than through msdb's SQLAgentReaderRole: the Agent roles let a
-- login use the Agent's procedures and SSMS's Agent node, and reading the tables needs SELECT on them all the same (as
-- other monitors' least-privilege scripts grant it). Express has no SQL Server Agent: the grants do no harm there.
-- Not granted: VIEW ANY DEFINITION. The availability-group name comes from sys.dm_hadr_name_id_map (server state), not
-- from sys.availability_groups, which without VIEW ANY DEFINITION silently answers no rows.
-- Nothing here lets the login change data, configuration or backups.

USE master;
GO

IF SUSER_ID(N'qatwatch_monitor') IS NULL
    CREATE LOGIN [qatwatch_monitor]
        WITH PASSWORD = N'change-me: a long random password',
             CHECK_POLICY = ON,
             DEFAULT_DATABASE = master;
GO

-- Server-level DMV access. 2022 split VIEW SERVER STATE into narrower permissions; on 2016 and 2019 only the
-- broad one exists. The grants run through EXEC because 2016/2019 cannot even compile the 2022 permission names.
IF CAST(SERVERPROPERTY('ProductMajorVersion') AS int) >= 16
BEGIN
    EXEC (N'GRANT VIEW SERVER PERFORMANCE STATE TO [qatwatch_monitor];');
    EXEC (N'GRANT VIEW SERVER SECURITY STATE TO [qatwatch_monitor];');
END
ELSE
    EXEC (N'GRANT VIEW SERVER STATE TO [qatwatch_monitor];');
GO

-- Certificates and asymmetric keys in master: without VIEW DEFINITION their rows are silently invisible (metadata
-- visibility). They are the encryptors of encrypted backups and of TDE database keys, whose loss makes those backups
-- unrestorable. Re-run this part after creating a new certificate or asymmetric key.
IF USER_ID(N'qatwatch_monitor') IS NULL
    CREATE USER [qatwatch_monitor] FOR LOGIN [qatwatch_monitor];
GO
DECLARE @grants nvarchar(max) = N'';
SELECT @grants += N'GRANT VIEW DEFINITION ON CERTIFICATE::' + QUOTENAME(name) + N' TO [qatwatch_monitor];' + NCHAR(10)
FROM sys.certificates
WHERE name NOT LIKE N'##%';
SELECT @grants += N'GRANT VIEW DEFINITION ON ASYMMETRIC KEY::' + QUOTENAME(name) + N' TO [qatwatch_monitor];' + NCHAR(10)
FROM sys.asymmetric_keys
WHERE name NOT LIKE N'##%';
EXEC sys.sp_executesql @grants;
GO

-- Backup history: read-only on the two msdb tables the probe joins, nothing else in msdb.
USE msdb;
GO
IF USER_ID(N'qatwatch_monitor') IS NULL
    CREATE USER [qatwatch_monitor] FOR LOGIN [qatwatch_monitor];
GRANT SELECT ON dbo.backupset TO [qatwatch_monitor];
GRANT SELECT ON dbo.backupmediafamily TO [qatwatch_monitor];
GRANT SELECT ON dbo.restorehistory TO [qatwatch_monitor];
GO

-- SQL Server Agent: jobs, their steps, categories and schedules, and their history (a failed backup job is seen within
-- minutes, not when backup-missing fires a day later). Without these the probe reports jobs as NO_PERMISSION.
GRANT SELECT ON dbo.sysjobs TO [qatwatch_monitor];
GRANT SELECT ON dbo.sysjobsteps TO [qatwatch_monitor];
GRANT SELECT ON dbo.syscategories TO [qatwatch_monitor];
GRANT SELECT ON dbo.sysjobschedules TO [qatwatch_monitor];
GRANT SELECT ON dbo.sysschedules TO [qatwatch_monitor];
GRANT SELECT ON dbo.sysjobhistory TO [qatwatch_monitor];
GO

-- Ola Hallengren's dbo.CommandLog, where his MaintenanceSolution.sql installs it by default (master): the exact BACKUP
-- command, hence ZSTD's LEVEL, which msdb does not record. If you installed it in another database, set the agent's
-- sqlserver.instances[].commandLogDatabase and run this part there instead of in master (after creating the user there).
-- Without the table nothing is granted and the agent reports no CommandLog, which is not an error.
USE master;
GO
IF OBJECT_ID(N'dbo.CommandLog', N'U') IS NOT NULL
    GRANT SELECT ON dbo.CommandLog TO [qatwatch_monitor];
GO

-- Windows authentication (the agent as a Windows service, no password anywhere): create the login for the
-- service account instead of the SQL login above, e.g. a group managed service account, and apply the same
-- grants to it (replace [qatwatch_monitor] with the account name in the statements above):
--   CREATE LOGIN [CONTOSO\qatwatch-svc$] FROM WINDOWS;
-- and leave the agent's `user` unset so that it connects with integratedSecurity=true.

-- qatwatch query: agent-jobs.sql
-- Purpose:    every SQL Server Agent job with its category and steps, so that the agent can tell which jobs back up
--             (BACKUP DATABASE/LOG, Ola Hallengren's DatabaseBackup, dbatools' Backup-DbaDatabase, maintenance plans),
--             which databases they name, and which other jobs (CHECKDB, IndexOptimize, ETL) may compete with them
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.sysjobs IN msdb; SELECT ON dbo.sysjobsteps IN msdb; SELECT ON dbo.syscategories IN msdb
-- Source:     sql-docs system-tables/dbo-sysjobs-transact-sql.md (job_id uniqueidentifier, name sysname, enabled tinyint,
--             category_id int), dbo-sysjobsteps-transact-sql.md (step_id int, step_name sysname, subsystem nvarchar(40),
--             command nvarchar(max), database_name sysname), dbo-syscategories-transact-sql.md (name sysname);
--             Ola Hallengren's MaintenanceSolution.sql (job names "DatabaseBackup - USER_DATABASES - FULL" ..., TSQL steps
--             "EXECUTE [dbo].[DatabaseBackup] @Databases = 'USER_DATABASES', ..., @BackupType = 'FULL'", category
--             "Database Maintenance"); maintenance-plan subplans are SSIS steps running /SQL "Maintenance Plans\<plan>".
-- Columns:    job_id uniqueidentifier, job_name nvarchar(128), category_name nvarchar(128), job_enabled tinyint,
--             step_id int, step_name nvarchar(128), subsystem nvarchar(40), command nvarchar(4000)
-- The command is cut to its first 4,000 characters: what tells a backup step (the procedure, @Databases, @BackupType,
-- BACKUP ... [db]) comes first, and nvarchar(max) would make every job's whole script travel each cycle.
-- A job without steps has one row with step_id NULL.
SELECT
    j.job_id,
    j.name AS job_name,
    c.name AS category_name,
    j.enabled AS job_enabled,
    s.step_id,
    s.step_name,
    s.subsystem,
    CAST(LEFT(s.command, 4000) AS nvarchar(4000)) AS command
FROM msdb.dbo.sysjobs AS j
LEFT JOIN msdb.dbo.syscategories AS c ON c.category_id = j.category_id
LEFT JOIN msdb.dbo.sysjobsteps AS s ON s.job_id = j.job_id
ORDER BY j.name, j.job_id, s.step_id;

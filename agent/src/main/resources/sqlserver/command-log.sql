-- qatwatch query: command-log.sql
-- Purpose:    one page of Ola Hallengren's dbo.CommandLog above the high-water mark, oldest first, with the text of each
--             BACKUP command: its COMPRESSION (ALGORITHM = ..., LEVEL = ...) is what msdb never records
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.CommandLog IN master
-- Source:     olahallengren/sql-server-maintenance-solution CommandLog.sql (ID int identity primary key, DatabaseName
--             sysname, Command nvarchar(max), CommandType nvarchar(60), StartTime/EndTime datetime2(7) (datetime in older
--             versions), ErrorNumber int), CommandExecute.sql (StartTime = SYSDATETIME(), local; ErrorNumber 0 on success,
--             set with EndTime when the command ends), DatabaseBackup.sql (CommandType BACKUP_DATABASE / BACKUP_LOG; the
--             command "BACKUP DATABASE [db] TO URL = N'...' WITH CHECKSUM, COMPRESSION (ALGORITHM = ZSTD, LEVEL = MEDIUM)").
-- Columns:    id int, database_name nvarchar(128), command_type nvarchar(60), command nvarchar(4000), start_time datetime,
--             end_time datetime, error_number int, server_utc_offset_minutes int
-- {command_log_table} is the configured database's dbo.CommandLog (commandLogDatabase, master by default, where Ola's
-- script installs it), a bracketed name the agent validated; the page size and the mark are numbers it formats.
-- Every row moves the mark, but only backup rows carry their command: IndexOptimize logs a row per index. A command
-- longer than 4,000 characters (a backup striped to many URLs) keeps its head and its WITH options, the middle cut.
SELECT TOP ({page_size})
    cl.ID AS id,
    cl.DatabaseName AS database_name,
    cl.CommandType AS command_type,
    CAST(CASE
        WHEN cl.CommandType NOT IN (N'BACKUP_DATABASE', N'BACKUP_LOG') THEN NULL
        WHEN LEN(cl.Command) <= 4000 THEN cl.Command
        ELSE LEFT(cl.Command, 1990) + N' [...] ' + RIGHT(cl.Command, 2000)
    END AS nvarchar(4000)) AS command,
    CAST(cl.StartTime AS datetime) AS start_time,
    CAST(cl.EndTime AS datetime) AS end_time,
    cl.ErrorNumber AS error_number,
    DATEPART(TZOFFSET, SYSDATETIMEOFFSET()) AS server_utc_offset_minutes
FROM {command_log_table} AS cl
WHERE cl.ID > {after_id}
ORDER BY cl.ID;

-- qatwatch query: running-backups.sql
-- Purpose:    backups running now, with progress and the server's own estimate of the time left
-- Minimum:    13 (SQL Server 2016)
-- Permission: VIEW SERVER STATE (2016-2019); VIEW SERVER PERFORMANCE STATE (2022+)
-- Source:     sql-docs sys-dm-exec-requests-transact-sql.md: without VIEW SERVER STATE "the user will see only the current
--             session", no error, so the first column says whether the answer is complete; on a read-intent-only
--             secondary replica the access check "won't pass for databases in the availability group, even if VIEW SERVER
--             STATE permission is present" unless the connection says applicationintent=readonly; estimated_completion_time
--             is "Internal only" (units undocumented; community tools read milliseconds), so it is passed on raw and
--             percent_complete extrapolation stays the primary estimate.
-- Columns:    can_see_all_sessions int, server_utc_offset_minutes int, session_id smallint, command nvarchar(32),
--             database_name nvarchar(128), start_time datetime, percent_complete real, total_elapsed_time int,
--             estimated_completion_time bigint
-- Always one row at least: the permission row, joined with each running backup (session_id NULL when none runs).
-- HAS_PERMS_BY_NAME answers NULL for a permission name the version does not know (VIEW SERVER PERFORMANCE STATE before 2022).
SELECT
    CASE WHEN HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE') = 1
           OR HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER PERFORMANCE STATE') = 1 THEN 1 ELSE 0 END AS can_see_all_sessions,
    DATEPART(TZOFFSET, SYSDATETIMEOFFSET()) AS server_utc_offset_minutes,
    r.session_id,
    r.command,
    DB_NAME(r.database_id) AS database_name,
    r.start_time,
    r.percent_complete,
    r.total_elapsed_time,
    r.estimated_completion_time
FROM (SELECT 1 AS one) AS p
LEFT JOIN sys.dm_exec_requests AS r ON r.command LIKE N'BACKUP%'
ORDER BY r.start_time;

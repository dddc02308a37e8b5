-- qatwatch query: running-backups.sql
-- Purpose:    backups and restores running now, with progress, the server's own estimate of the time left and the CPU
--             each has used so far (issue 30); one query per poll, the same query as when nothing runs
-- Minimum:    13 (SQL Server 2016)
-- Permission: VIEW SERVER STATE (2016-2019); VIEW SERVER PERFORMANCE STATE (2022+)
-- Source:     sql-docs sys-dm-exec-requests-transact-sql.md: without VIEW SERVER STATE "the user will see only the current
--             session", no error, so the first column says whether the answer is complete; on a read-intent-only
--             secondary replica the access check "won't pass for databases in the availability group, even if VIEW SERVER
--             STATE permission is present" unless the connection says applicationintent=readonly; estimated_completion_time
--             is "Internal only" (units undocumented; community tools read milliseconds), so it is passed on raw and
--             percent_complete extrapolation stays the primary estimate. cpu_time: "CPU time in milliseconds that is used
--             by the request"; "Time values returned by this dynamic management view do not include time spent in
--             preemptive mode" (a lower bound). sys-dm-exec-sessions-transact-sql.md: cpu_time of the session, in ms.
--             serverproperty-transact-sql.md: ProcessID, "useful in identifying which Sqlservr.exe belongs to this instance".
-- Columns:    can_see_all_sessions int, server_utc_offset_minutes int, process_id int, session_id smallint,
--             command nvarchar(32), database_name nvarchar(128), start_time datetime, percent_complete real,
--             total_elapsed_time int, estimated_completion_time bigint, request_cpu_ms int, session_cpu_ms int
-- Always one row at least: the permission row, joined with each running backup or restore (session_id NULL when none runs).
-- HAS_PERMS_BY_NAME answers NULL for a permission name the version does not know (VIEW SERVER PERFORMANCE STATE before 2022).
SELECT
    CASE WHEN HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE') = 1
           OR HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER PERFORMANCE STATE') = 1 THEN 1 ELSE 0 END AS can_see_all_sessions,
    DATEPART(TZOFFSET, SYSDATETIMEOFFSET()) AS server_utc_offset_minutes,
    CAST(SERVERPROPERTY('ProcessID') AS int) AS process_id,
    r.session_id,
    r.command,
    DB_NAME(r.database_id) AS database_name,
    r.start_time,
    r.percent_complete,
    r.total_elapsed_time,
    r.estimated_completion_time,
    r.cpu_time AS request_cpu_ms,
    s.cpu_time AS session_cpu_ms
FROM (SELECT 1 AS one) AS p
LEFT JOIN sys.dm_exec_requests AS r ON r.command LIKE N'BACKUP%' OR r.command LIKE N'RESTORE%'
LEFT JOIN sys.dm_exec_sessions AS s ON s.session_id = r.session_id
ORDER BY r.start_time;

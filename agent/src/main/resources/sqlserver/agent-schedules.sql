-- qatwatch query: agent-schedules.sql
-- Purpose:    the schedules of every SQL Server Agent job: how often it runs, at what local time, and its next run
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.sysjobschedules IN msdb; SELECT ON dbo.sysschedules IN msdb
-- Source:     sql-docs system-tables/dbo-sysschedules-transact-sql.md (freq_type 1 once, 4 daily, 8 weekly, 16 monthly,
--             32 monthly relative, 64 when Agent starts, 128 when idle; freq_interval; freq_subday_type 1 at the specified
--             time, 2 seconds, 4 minutes, 8 hours; active_start_time int HHMMSS), dbo-sysjobschedules-transact-sql.md
--             (next_run_date int yyyymmdd and next_run_time int HHMMSS, 0 when not computed; "The sysjobschedules table
--             refreshes every 20 minutes").
-- Columns:    job_id uniqueidentifier, schedule_id int, schedule_name nvarchar(128), enabled int, freq_type int,
--             freq_interval int, freq_subday_type int, freq_subday_interval int, active_start_time int,
--             next_run_date int, next_run_time int, server_utc_offset_minutes int
-- Times are server local; the server's UTC offset now converts the next run (sysjobschedules has no time-zone column).
SELECT
    js.job_id,
    s.schedule_id,
    s.name AS schedule_name,
    s.enabled,
    s.freq_type,
    s.freq_interval,
    s.freq_subday_type,
    s.freq_subday_interval,
    s.active_start_time,
    js.next_run_date,
    js.next_run_time,
    DATEPART(TZOFFSET, SYSDATETIMEOFFSET()) AS server_utc_offset_minutes
FROM msdb.dbo.sysjobschedules AS js
JOIN msdb.dbo.sysschedules AS s ON s.schedule_id = js.schedule_id
ORDER BY js.job_id, s.schedule_id;

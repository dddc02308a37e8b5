-- qatwatch query: job-history.sql
-- Purpose:    one page of SQL Server Agent job history above the high-water mark, oldest first: each job outcome
--             (step 0) and each step, with its status, start, duration and the message Agent logged
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.sysjobhistory IN msdb; SELECT ON dbo.sysjobs IN msdb
-- Source:     sql-docs system-tables/dbo-sysjobhistory-transact-sql.md (instance_id int "Unique identifier for the row";
--             run_status 0 Failed, 1 Succeeded, 2 Retry, 3 Canceled, 4 In Progress; run_date int; run_time int HHMMSS;
--             run_duration int "in HHMMSS format"; message nvarchar(4000); sql_message_id, sql_severity int);
--             sp-purge-jobhistory-transact-sql.md (removes history rows; a restored or rebuilt msdb starts instance_id
--             again, which the agent detects with the highest instance_id left).
-- Columns:    instance_id int, job_id uniqueidentifier, job_name nvarchar(128), step_id int, step_name nvarchar(128),
--             sql_message_id int, sql_severity int, message nvarchar(4000), run_status int, run_date int, run_time int,
--             run_duration int, server_utc_offset_minutes int
-- The page size (TOP) and the high-water mark are numbers the agent formats into the text; nothing else is substituted.
-- run_date/run_time are server local time without a zone: the agent converts them with the server's UTC offset now.
-- The job's name is today's (a renamed job keeps its job_id); a deleted job's history is deleted with it by default.
SELECT TOP ({page_size})
    h.instance_id,
    h.job_id,
    j.name AS job_name,
    h.step_id,
    h.step_name,
    h.sql_message_id,
    h.sql_severity,
    h.message,
    h.run_status,
    h.run_date,
    h.run_time,
    h.run_duration,
    DATEPART(TZOFFSET, SYSDATETIMEOFFSET()) AS server_utc_offset_minutes
FROM msdb.dbo.sysjobhistory AS h
LEFT JOIN msdb.dbo.sysjobs AS j ON j.job_id = h.job_id
WHERE h.instance_id > {after_instance_id}
ORDER BY h.instance_id;

-- qatwatch query: job-history-latest.sql
-- Purpose:    the highest instance_id in the job history, asked when nothing is new above the high-water mark: a lower
--             value means msdb was restored, rebuilt or reseeded, and the mark starts again from the rows that are there
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.sysjobhistory IN msdb
-- Source:     sql-docs system-tables/dbo-sysjobhistory-transact-sql.md (instance_id int, unique per row).
-- Columns:    latest_instance_id int (NULL when the history is empty)
SELECT MAX(h.instance_id) AS latest_instance_id
FROM msdb.dbo.sysjobhistory AS h;

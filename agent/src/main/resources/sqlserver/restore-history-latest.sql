-- qatwatch query: restore-history-latest.sql
-- Purpose:    the highest restore_history_id, asked when nothing is new above the high-water mark: a lower value means
--             msdb was restored or rebuilt, and the mark starts again from the rows that are there
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.restorehistory IN msdb
-- Source:     sql-docs system-tables/restorehistory-transact-sql.md (restore_history_id: identity, primary key).
-- Columns:    latest_restore_history_id int (NULL when msdb holds no restore)
SELECT MAX(rh.restore_history_id) AS latest_restore_history_id
FROM msdb.dbo.restorehistory AS rh;

-- qatwatch query: command-log-latest.sql
-- Purpose:    the highest ID in Ola Hallengren's dbo.CommandLog, asked when nothing is new above the high-water mark: a
--             lower value means the table was recreated or truncated, and the mark starts again
-- Minimum:    13 (SQL Server 2016)
-- Permission: SELECT ON dbo.CommandLog IN master
-- Source:     olahallengren/sql-server-maintenance-solution CommandLog.sql (ID int IDENTITY(1,1), the primary key).
-- Columns:    latest_id int (NULL when the table is empty)
SELECT MAX(cl.ID) AS latest_id
FROM {command_log_table} AS cl;

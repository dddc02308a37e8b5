-- qatwatch query: databases.sql
-- Purpose:    every database that can be backed up: recovery model, state, AUTO_CLOSE, when it was created,
--             and its identity within an availability group
-- Minimum:    13 (SQL Server 2016)
-- Permission: public
-- Source:     sql-docs sys-databases-transact-sql.md: rows of other databases need VIEW ANY DATABASE, which public holds by
--             default; group_database_id: "the same for this database on the primary replica and on every secondary
--             replica on which the database has been joined to the availability group" (NULL outside one, from 2012);
--             create_date: "Date the database was created or renamed".
-- Columns:    name nvarchar(128), database_id int, create_date datetime, recovery_model_desc nvarchar(60), state_desc nvarchar(60),
--             is_auto_close_on bit, group_database_id uniqueidentifier
-- sys.database_recovery_status is not joined here: "If the database is not opened, the Database Engine tries to start
-- it", so reading it every cycle woke every AUTO_CLOSE database. The GUIDs come from a separate query, sent only when a
-- database shows a database_id, create_date or state the agent has not asked about (a database re-created by RESTORE is
-- created anew). A database restored over itself that kept its create_date keeps its previous GUIDs in the report until the
-- agent restarts. tempdb (database_id 2) is re-created at every start and cannot be backed up.
SELECT
    d.name,
    d.database_id,
    d.create_date,
    d.recovery_model_desc,
    d.state_desc,
    d.is_auto_close_on,
    d.group_database_id
FROM sys.databases AS d
WHERE d.database_id <> 2
ORDER BY d.name;

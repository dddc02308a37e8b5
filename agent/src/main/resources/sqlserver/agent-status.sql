-- qatwatch query: agent-status.sql
-- Purpose:    whether SQL Server Agent runs on this instance, before its tables are asked: Express has no Agent, and on
--             Linux (or with the service stopped) its extended procedures are off
-- Minimum:    13 (SQL Server 2016)
-- Permission: public
-- Source:     sql-docs "Agent XPs (server configuration option)" (0: "SQL Server Agent extended stored procedures are not
--             available (the default)"; enabled when the SQL Server Agent service starts); "Editions and supported features
--             of SQL Server" (Express: no SQL Server Agent); "Install SQL Server Agent on Linux" (off until
--             mssql-conf set sqlagent.enabled true); SERVERPROPERTY('EngineEdition') 4 = Express.
-- Columns:    engine_edition int, agent_xps int (NULL when sys.configurations has no such row)
SELECT
    CAST(SERVERPROPERTY('EngineEdition') AS int) AS engine_edition,
    (SELECT CAST(c.value_in_use AS int) FROM sys.configurations AS c WHERE c.name = N'Agent XPs') AS agent_xps;

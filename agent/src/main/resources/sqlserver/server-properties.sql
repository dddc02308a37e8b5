-- qatwatch query: server-properties.sql
-- Purpose:    the instance's identity and version; read first, because the version decides which other queries run
-- Minimum:    13 (SQL Server 2016)
-- Permission: public
-- Source:     sql-docs serverproperty-transact-sql.md (ProductMajorVersion, EngineEdition, ServerName, IsHadrEnabled).
-- Columns:    product_version nvarchar(128), product_major_version int, edition nvarchar(128), engine_edition int,
--             machine_name nvarchar(128), server_name nvarchar(128), is_hadr_enabled int
SELECT
    CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS product_version,
    CAST(SERVERPROPERTY('ProductMajorVersion') AS int) AS product_major_version,
    CAST(SERVERPROPERTY('Edition') AS nvarchar(128)) AS edition,
    CAST(SERVERPROPERTY('EngineEdition') AS int) AS engine_edition,
    CAST(SERVERPROPERTY('MachineName') AS nvarchar(128)) AS machine_name,
    CAST(SERVERPROPERTY('ServerName') AS nvarchar(128)) AS server_name,
    CAST(SERVERPROPERTY('IsHadrEnabled') AS int) AS is_hadr_enabled;

-- qatwatch query: availability-replicas.sql
-- Purpose:    for databases in an availability group: the group, this replica's role, and whether this replica is the preferred backup replica
-- Minimum:    13 (SQL Server 2016); runs only when SERVERPROPERTY('IsHadrEnabled') = 1
-- Permission: VIEW SERVER STATE (2016, 2019); VIEW SERVER PERFORMANCE STATE (2022+)
-- Columns:    database_name nvarchar(128), availability_group nvarchar(128), role_desc nvarchar(60), is_preferred_backup_replica bit
SELECT
    d.name AS database_name,
    ag.name AS availability_group,
    ars.role_desc,
    CAST(sys.fn_hadr_backup_is_preferred_replica(d.name) AS bit) AS is_preferred_backup_replica
FROM sys.databases AS d
JOIN sys.dm_hadr_availability_replica_states AS ars ON ars.replica_id = d.replica_id AND ars.is_local = 1
JOIN sys.availability_groups AS ag ON ag.group_id = ars.group_id
ORDER BY d.name;

-- qatwatch query: availability-databases.sql
-- Purpose:    for each local database in an availability group: the group's id and name, this replica's role, and whether
--             this replica is the preferred backup replica
-- Minimum:    13 (SQL Server 2016); runs only when SERVERPROPERTY('IsHadrEnabled') = 1
-- Permission: VIEW SERVER STATE (2016-2019); VIEW SERVER PERFORMANCE STATE (2022+)
-- Source:     sql-docs sys-dm-hadr-database-replica-states-transact-sql.md (group_id, is_local), sys-dm-hadr-name-id-map-transact-sql.md
--             (ag_name by ag_id; VIEW SERVER STATE), sys-dm-hadr-availability-replica-states-transact-sql.md (role_desc),
--             sys-fn-hadr-backup-is-preferred-replica-transact-sql.md (returns bit; its permission is not documented).
--             Not sys.availability_groups: it needs VIEW ANY DEFINITION and without it answers no rows and no error
--             (sys-availability-groups-transact-sql.md), which hid every availability group from the monitoring login.
-- Columns:    database_name nvarchar(128), availability_group_id uniqueidentifier, availability_group nvarchar(256),
--             role_desc nvarchar(60), is_preferred_backup_replica bit
-- The database's identity within its group (group_database_id) is read from sys.databases with the other database facts (public).
SELECT
    d.name AS database_name,
    drs.group_id AS availability_group_id,
    nm.ag_name AS availability_group,
    ars.role_desc,
    CAST(sys.fn_hadr_backup_is_preferred_replica(d.name) AS bit) AS is_preferred_backup_replica
FROM sys.dm_hadr_database_replica_states AS drs
JOIN sys.databases AS d ON d.database_id = drs.database_id
JOIN sys.dm_hadr_availability_replica_states AS ars ON ars.replica_id = drs.replica_id
LEFT JOIN sys.dm_hadr_name_id_map AS nm ON nm.ag_id = drs.group_id
WHERE drs.is_local = 1
ORDER BY d.name;

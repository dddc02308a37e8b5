-- qatwatch query: accelerator-status.sql
-- Purpose:    whether QAT backup compression runs in hardware, in software, or not at all, and why
-- Minimum:    16 (SQL Server 2022; the view does not exist before)
-- Permission: VIEW SERVER PERFORMANCE STATE (2022+)
-- Source:     sql-docs sys-dm-server-accelerator-status-transact-sql.md (columns nvarchar(60), accelerator_hardware_detected);
--             "Use integrated acceleration and offloading" (the 13 mode_reason_desc values). The numeric config, config_in_use,
--             mode and mode_reason columns have no documented meaning and are not read.
-- Columns:    accelerator nvarchar(60), mode_desc nvarchar(60), mode_reason_desc nvarchar(60),
--             accelerator_hardware_detected tinyint, accelerator_library_version nvarchar(60), accelerator_driver_version nvarchar(60)
SELECT
    s.accelerator,
    s.mode_desc,
    s.mode_reason_desc,
    s.accelerator_hardware_detected,
    s.accelerator_library_version,
    s.accelerator_driver_version
FROM sys.dm_server_accelerator_status AS s;

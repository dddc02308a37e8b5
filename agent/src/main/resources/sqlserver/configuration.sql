-- qatwatch query: configuration.sql
-- Purpose:    offload and backup defaults; value differs from value_in_use while a change waits for RECONFIGURE or a restart
-- Minimum:    13 (SQL Server 2016; the hardware offload rows and 'backup compression algorithm' exist from 2022 and are simply absent before)
-- Permission: public
-- Source:     sql-docs sys-configurations-transact-sql.md (value and value_in_use are sql_variant); "View or configure the
--             backup compression algorithm server configuration option" (0 = "backup compression is off, as specified by
--             backup compression default", 1 MS_XPRESS, 2 QAT_DEFLATE, 3 ZSTD from 2025). 'hardware offload config' and
--             'hardware offload mode' have no documented values: the agent reports them raw and names no meaning.
-- Columns:    name nvarchar(35), value bigint, value_in_use bigint
-- value and value_in_use are sql_variant in sys.configurations; cast so every driver reads them as numbers.
SELECT
    c.name,
    CAST(c.value AS bigint) AS value,
    CAST(c.value_in_use AS bigint) AS value_in_use
FROM sys.configurations AS c
WHERE c.name IN (N'hardware offload enabled', N'hardware offload config', N'hardware offload mode',
                 N'backup compression default', N'backup compression algorithm', N'backup checksum default')
ORDER BY c.name;

-- qatwatch query: certificates.sql
-- Purpose:    certificates in master: expiry, when the private key was last backed up, and whether backups were encrypted with them
--             (a backup encrypted with a certificate whose key was never backed up cannot be restored elsewhere)
-- Minimum:    13 (SQL Server 2016)
-- Permission: VIEW DEFINITION ON CERTIFICATE::* IN master; SELECT ON dbo.backupset IN msdb
-- Source:     sql-docs sys-certificates-transact-sql.md (thumbprint varbinary(32), expiry_date in UTC, pvt_key_last_backup_date;
--             metadata visibility: without VIEW DEFINITION on a certificate its row is silently missing, not an error).
-- Columns:    server_utc_offset_minutes int, name nvarchar(128), thumbprint varbinary(32), expiry_date datetime,
--             pvt_key_last_backup_date datetime, used_for_backup_encryption bit
-- expiry_date comes from the certificate (UTC); pvt_key_last_backup_date is server local time.
-- System certificates (##MS_...##) are skipped: they are not used to encrypt backups.
SELECT
    DATEPART(TZOFFSET, SYSDATETIMEOFFSET()) AS server_utc_offset_minutes,
    c.name,
    c.thumbprint,
    c.expiry_date,
    c.pvt_key_last_backup_date,
    CAST(CASE WHEN EXISTS (SELECT 1 FROM msdb.dbo.backupset AS bs WHERE bs.encryptor_thumbprint = c.thumbprint)
              THEN 1 ELSE 0 END AS bit) AS used_for_backup_encryption
FROM master.sys.certificates AS c
WHERE c.name NOT LIKE N'##%'
ORDER BY c.name;

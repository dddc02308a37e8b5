-- qatwatch query: asymmetric-keys.sql
-- Purpose:    asymmetric keys in master: besides certificates, what may encrypt a backup or protect a TDE key, and whether any
--             backup was encrypted with them
-- Minimum:    13 (SQL Server 2016)
-- Permission: VIEW DEFINITION ON ASYMMETRIC KEY::* IN master; SELECT ON dbo.backupset IN msdb
-- Source:     sql-docs sys-asymmetric-keys-transact-sql.md (thumbprint varbinary(32), provider_type 'CRYPTOGRAPHIC PROVIDER' for
--             Extensible Key Management keys, pvt_key_encryption_type_desc; metadata visibility: rows the login has no
--             permission on are silently missing); backupset-transact-sql.md (encryptor_thumbprint "can be used to find
--             certificate or the asymmetric key", encryptor_type Certificate or Asymmetric Key).
-- Columns:    name nvarchar(128), thumbprint varbinary(32), provider_type nvarchar(120), pvt_key_encryption_type_desc nvarchar(60),
--             used_for_backup_encryption bit
-- System keys (##MS_...##) are skipped, as system certificates are: they encrypt no backups.
SELECT
    k.name,
    k.thumbprint,
    k.provider_type,
    k.pvt_key_encryption_type_desc,
    CAST(CASE WHEN EXISTS (SELECT 1 FROM msdb.dbo.backupset AS bs WHERE bs.encryptor_thumbprint = k.thumbprint)
              THEN 1 ELSE 0 END AS bit) AS used_for_backup_encryption
FROM master.sys.asymmetric_keys AS k
WHERE k.name NOT LIKE N'##%'
ORDER BY k.name;

#Requires -Version 5.1
#Requires -RunAsAdministrator
<#
.SYNOPSIS
Removes the qatwatch agent Windows service.

.DESCRIPTION
Stops and deletes the service registered by install-agent.ps1 (procrun also removes its registry
parameters). %ProgramData%\qatwatch (agent.yaml, state\, logs\) is kept unless -Purge is given, so a
later install picks up the same configuration and outbox. The unzipped program folder is not touched:
delete it yourself after this script.

.PARAMETER ServiceName
Service name given to install-agent.ps1. Default: qatwatch-agent.

.PARAMETER DataRoot
Data folder given to install-agent.ps1. Default: %ProgramData%\qatwatch.

.PARAMETER Purge
Also delete the data folder: configuration, unsent reports and logs.

.EXAMPLE
.\uninstall-agent.ps1 -Purge
#>
[CmdletBinding()]
param(
    [string] $ServiceName = 'qatwatch-agent',
    [string] $DataRoot = (Join-Path $env:ProgramData 'qatwatch'),
    [switch] $Purge
)

Set-StrictMode -Version 3.0
$ErrorActionPreference = 'Stop'

$prunsrv = Join-Path $PSScriptRoot 'bin\prunsrv.exe'

# 1. Stop and delete the service (prunsrv //DS// stops it first and removes procrun's registry keys)
$service = Get-Service -Name $ServiceName -ErrorAction SilentlyContinue
if ($service) {
    if ($service.Status -ne 'Stopped') {
        Stop-Service -Name $ServiceName
    }
    if (Test-Path -LiteralPath $prunsrv) {
        & $prunsrv "//DS//$ServiceName"
    } else {
        & sc.exe delete $ServiceName
    }
    if ($LASTEXITCODE -ne 0) {
        throw "Deleting service $ServiceName failed with exit code $LASTEXITCODE; is services.msc open on it? Close it and retry."
    }
    Write-Host "Service $ServiceName removed."
} else {
    Write-Host "Service $ServiceName is not installed."
}

# 2. Data: kept by default for a reinstall; -Purge deletes configuration, outbox and logs
if ($Purge) {
    if (Test-Path -LiteralPath $DataRoot) {
        Remove-Item -LiteralPath $DataRoot -Recurse -Force
        Write-Host "Removed $DataRoot."
    }
} else {
    Write-Host "Kept $DataRoot (configuration, state, logs); run with -Purge to delete it."
}

#Requires -Version 5.1
#Requires -RunAsAdministrator
<#
.SYNOPSIS
Registers the qatwatch agent as a Windows service.

.DESCRIPTION
Run from the unzipped qatwatch-agent folder (e.g. C:\Program Files\qatwatch-agent), in an elevated
PowerShell. The script:
  1. checks the Java 17+ runtime (JAVA_HOME or -JavaHome) and the files of this folder;
  2. registers (or updates) the service with procrun's prunsrv.exe: the agent runs inside the service
     process's JVM (--StartMode=jvm), started and stopped by io.qatwatch.agent.service.WindowsService;
  3. runs it as the virtual service account NT SERVICE\qatwatch-agent (no password, no user to manage);
  4. sets recovery actions: restart after 1 min, 1 min, then 5 min; the failure count resets after a day;
  5. creates %ProgramData%\qatwatch: agent.yaml (from agent.example.yaml, only if absent), state\, logs\,
     and restricts them: the config is readable by SYSTEM, Administrators and the service account only;
  6. starts the service when it was running before (upgrade) or when -Start is given.
Running it again upgrades in place: the configuration, state and logs are kept.

.PARAMETER JavaHome
Folder of a Java 17 or newer JDK/JRE (the one holding bin\server\jvm.dll). Default: $env:JAVA_HOME.

.PARAMETER ServiceName
Service name, also the virtual account's name (NT SERVICE\<name>). Default: qatwatch-agent.

.PARAMETER DataRoot
Folder for agent.yaml, state\ and logs\. Default: %ProgramData%\qatwatch.

.PARAMETER MaxHeapMB
Maximum Java heap in MB. Default: 64 (the agent is sized to sit beside production databases).

.PARAMETER Start
Start the service at the end (use once agent.yaml names the collector and its token).

.EXAMPLE
.\install-agent.ps1 -JavaHome 'C:\Program Files\Eclipse Adoptium\jdk-17.0.15.6-hotspot' -Start
#>
[CmdletBinding()]
param(
    [string] $JavaHome = $env:JAVA_HOME,
    [string] $ServiceName = 'qatwatch-agent',
    [string] $DataRoot = (Join-Path $env:ProgramData 'qatwatch'),
    [ValidateRange(32, 4096)]
    [int] $MaxHeapMB = 64,
    [switch] $Start
)

Set-StrictMode -Version 3.0
$ErrorActionPreference = 'Stop'

$installDir = $PSScriptRoot
$prunsrv = Join-Path $installDir 'bin\prunsrv.exe'
$jar = Join-Path $installDir 'lib\qatwatch-agent.jar'
$sample = Join-Path $installDir 'agent.example.yaml'
$config = Join-Path $DataRoot 'agent.yaml'
$state = Join-Path $DataRoot 'state'
$logs = Join-Path $DataRoot 'logs'
$account = "NT SERVICE\$ServiceName"
$serviceClass = 'io.qatwatch.agent.service.WindowsService'
# well-known SIDs, so the ACLs work on every Windows display language
$system = '*S-1-5-18'
$administrators = '*S-1-5-32-544'

function Invoke-Native {
    # runs prunsrv.exe, sc.exe or icacls.exe and stops the script when it fails
    param([string] $Program, [string[]] $Arguments)
    & $Program @Arguments
    if ($LASTEXITCODE -ne 0) {
        throw "$Program $($Arguments -join ' ') failed with exit code $LASTEXITCODE (procrun logs: $logs)"
    }
}

# 1. Java 17+ and the files of this folder
if (-not $JavaHome) {
    throw 'No Java runtime: set JAVA_HOME or pass -JavaHome with the folder of a Java 17+ JDK/JRE (e.g. Eclipse Temurin 17).'
}
$jvm = Join-Path $JavaHome 'bin\server\jvm.dll'
if (-not (Test-Path -LiteralPath $jvm)) {
    throw "$jvm not found: -JavaHome must be the folder of a 64-bit Java 17+ JDK/JRE (the one that contains bin\server\jvm.dll)."
}
$release = Join-Path $JavaHome 'release'
if (Test-Path -LiteralPath $release) {
    $match = Select-String -LiteralPath $release -Pattern '^JAVA_VERSION="(\d+)'
    if ($match -and [int] $match.Matches[0].Groups[1].Value -lt 17) {
        throw "$JavaHome is Java $($match.Matches[0].Groups[1].Value); qatwatch needs Java 17 or newer."
    }
}
foreach ($file in @($prunsrv, $jar, $sample)) {
    if (-not (Test-Path -LiteralPath $file)) {
        throw "$file is missing: unzip the whole qatwatch-agent zip and run install-agent.ps1 from that folder."
    }
}

# 2. Register the service, or update it when it exists (an upgrade); stop it first so the jar can be replaced
$existing = Get-Service -Name $ServiceName -ErrorAction SilentlyContinue
$wasRunning = $false
if ($existing) {
    $wasRunning = $existing.Status -ne 'Stopped'
    if ($wasRunning) {
        Stop-Service -Name $ServiceName
    }
}
New-Item -ItemType Directory -Force -Path $DataRoot, $state, $logs | Out-Null

$procrun = @(
    "--DisplayName=qatwatch agent",
    "--Description=qatwatch agent: Intel QAT, licence posture and SQL Server backup monitoring for this host",
    "--Startup=auto",
    "--Jvm=$jvm",
    "--Classpath=$jar",
    "--JvmMs=8",
    "--JvmMx=$MaxHeapMB",
    "--JvmSs=512",
    # the same small-footprint settings as the qatwatch launcher's agent defaults (docs/benchmarks.md, "Agent
    # footprint"), less the glibc-only TrimNativeHeapInterval; procrun splits them at ';'
    "--JvmOptions=-Dfile.encoding=UTF-8;-XX:+UseSerialGC;-Xmn3m;-XX:-ShrinkHeapInSteps;-XX:MinHeapFreeRatio=10;-XX:MaxHeapFreeRatio=30;-XX:TieredStopAtLevel=1;-XX:CICompilerCount=1;-XX:MaxMetaspaceSize=48m;-XX:ReservedCodeCacheSize=16m;-XX:MaxDirectMemorySize=16m;-Djdk.nio.maxCachedBufferSize=65536;-XX:-UsePerfData;-XX:+UnlockDiagnosticVMOptions;-XX:ArchiveRelocationMode=0;-XX:AsyncDeflationInterval=10000;-XX:GuaranteedSafepointInterval=0;-Dio.netty.allocator.type=unpooled;-Dio.netty.noPreferDirect=true;-Djava.awt.headless=true;-Dorg.slf4j.simpleLogger.showDateTime=true;-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd HH:mm:ss.SSSZ;-Dorg.slf4j.simpleLogger.log.io.netty=warn;-Dorg.slf4j.simpleLogger.log.io.vertx=warn",
    "--StartMode=jvm",
    "--StartClass=$serviceClass",
    "--StartMethod=start",
    "--StartParams=--config;$config;--data;$state",
    "--StopMode=jvm",
    "--StopClass=$serviceClass",
    "--StopMethod=stop",
    "--StopTimeout=45",
    "--LogPath=$logs",
    "--LogPrefix=procrun",
    "--StdOutput=auto",
    "--StdError=auto"
)
if ($existing) {
    Invoke-Native $prunsrv (@("//US//$ServiceName") + $procrun)
} else {
    Invoke-Native $prunsrv (@("//IS//$ServiceName", "--Install=$prunsrv") + $procrun)
}

# 3. Virtual service account: Windows manages it, it has no password and exists only for this service
Invoke-Native 'sc.exe' @('config', $ServiceName, 'obj=', $account)

# 4. Recovery: restart after 60 s, 60 s, then 300 s; reset the failure count after a day.
#    failureflag 1 also applies them when the agent stops with a non-zero exit code (failed start).
Invoke-Native 'sc.exe' @('failure', $ServiceName, 'reset=', '86400', 'actions=', 'restart/60000/restart/60000/restart/300000')
Invoke-Native 'sc.exe' @('failureflag', $ServiceName, '1')

# 5. Configuration and state. The account can read the install folder and the data root, write state\ and
#    logs\; agent.yaml (tokens, SQL passwords) is readable only by SYSTEM, Administrators and the account.
if (-not (Test-Path -LiteralPath $config)) {
    Copy-Item -LiteralPath $sample -Destination $config
}
Invoke-Native 'icacls.exe' @($installDir, '/grant', "${account}:(OI)(CI)RX")
Invoke-Native 'icacls.exe' @($DataRoot, '/inheritance:r', '/grant:r', "${system}:(OI)(CI)F", "${administrators}:(OI)(CI)F", "${account}:(OI)(CI)RX")
Invoke-Native 'icacls.exe' @($state, '/grant:r', "${account}:(OI)(CI)M")
Invoke-Native 'icacls.exe' @($logs, '/grant:r', "${account}:(OI)(CI)M")
Invoke-Native 'icacls.exe' @($config, '/inheritance:r', '/grant:r', "${system}:F", "${administrators}:F", "${account}:R")

# 6. Start when asked to, or when it ran before the upgrade
if ($Start -or $wasRunning) {
    Start-Service -Name $ServiceName
    Write-Host "$ServiceName is running. Logs: $logs"
} else {
    Write-Host "$ServiceName is installed. Edit $config (collector URL and token), then: Start-Service $ServiceName"
}

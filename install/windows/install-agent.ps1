#Requires -Version 5.1
#Requires -RunAsAdministrator
<#
.SYNOPSIS
Registers the qatwatch agent as a Windows service.

.DESCRIPTION
Run from the unzipped qatwatch-agent folder (e.g. C:\Program Files\qatwatch-agent), in an elevated
PowerShell. The script:
  1. finds a 64-bit Java 17+ runtime (-JavaHome, else JAVA_HOME, else the newest one that the Eclipse
     Temurin, Microsoft or Oracle installers registered, else java.exe on PATH) and checks this folder;
  2. registers (or updates) the service with procrun's prunsrv.exe: the agent runs inside the service
     process's JVM (--StartMode=jvm), started and stopped by io.qatwatch.agent.service.WindowsService;
  3. runs it as the virtual service account NT SERVICE\qatwatch-agent (no password, no user to manage);
  4. sets recovery actions: restart after 1 min, 1 min, then 5 min; the failure count resets after a day;
  5. creates %ProgramData%\qatwatch: agent.yaml (from agent.example.yaml, only if absent), state\, logs\,
     and restricts them: the config and the token are readable by SYSTEM, Administrators and the service
     account only; with -CollectorUrl and -Token or -TokenFile it writes the token file and sets
     collector.url and collector.tokenFile in agent.yaml (other lines stay as they are);
  6. starts the service when it was running before (upgrade) or when -Start is given.
Running it again upgrades in place: the configuration, state and logs are kept. Run it again after a Java
update too: updates install into a new versioned folder and remove the old one, which the service names.

.PARAMETER JavaHome
Folder of a 64-bit Java 17 or newer JDK/JRE (the one holding bin\server\jvm.dll). Default: JAVA_HOME, then the
newest Java 17+ registered under HKLM\SOFTWARE by the Eclipse Temurin (Eclipse Adoptium), Microsoft Build of
OpenJDK or Oracle (JavaSoft) installers, then the one java.exe on PATH belongs to.

.PARAMETER CollectorUrl
The collector's base URL (e.g. https://collector.example.org:8470), written to agent.yaml as collector.url.

.PARAMETER Token
This host's agent token (from "qatwatch collector token add HOST" on the collector), written to
<DataRoot>\agent.token, readable by SYSTEM, Administrators and the service account only, and named in agent.yaml
as collector.tokenFile. Prefer -TokenFile: a command line can end up in the PowerShell history.

.PARAMETER TokenFile
A file whose first line is the token; its content is copied to <DataRoot>\agent.token as with -Token.

.PARAMETER ServiceName
Service name, also the virtual account's name (NT SERVICE\<name>). Default: qatwatch-agent.

.PARAMETER DataRoot
Folder for agent.yaml, state\ and logs\. Default: %ProgramData%\qatwatch.

.PARAMETER MaxHeapMB
Maximum Java heap in MB. Default: 48, as the qatwatch launcher's (the agent is sized to sit beside production databases).

.PARAMETER LogDays
Days of procrun's daily log files kept in <DataRoot>\logs; the agent deletes older ones. Default: 30.

.PARAMETER Start
Start the service at the end (use once agent.yaml names the collector and its token).

.EXAMPLE
.\install-agent.ps1 -CollectorUrl https://collector.example.org:8470 -TokenFile \\fileserver\rollout\sql01.token -Start

.EXAMPLE
.\install-agent.ps1 -JavaHome 'C:\Program Files\Eclipse Adoptium\jdk-17.0.15.6-hotspot'
#>
[CmdletBinding()]
param(
    [string] $JavaHome,
    [string] $CollectorUrl,
    [string] $Token,
    [string] $TokenFile,
    [string] $ServiceName = 'qatwatch-agent',
    [string] $DataRoot = (Join-Path $env:ProgramData 'qatwatch'),
    [ValidateRange(32, 4096)]
    [int] $MaxHeapMB = 48,
    [ValidateRange(1, 3650)]
    [int] $LogDays = 30,
    [switch] $Start
)

Set-StrictMode -Version 3.0
$ErrorActionPreference = 'Stop'

$installDir = $PSScriptRoot
$prunsrv = Join-Path $installDir 'bin\prunsrv.exe'
$jar = Join-Path $installDir 'lib\qatwatch-agent.jar'
$sample = Join-Path $installDir 'agent.example.yaml'
$config = Join-Path $DataRoot 'agent.yaml'
$tokenPath = Join-Path $DataRoot 'agent.token'
$state = Join-Path $DataRoot 'state'
$logs = Join-Path $DataRoot 'logs'
$account = "NT SERVICE\$ServiceName"
$serviceClass = 'io.qatwatch.agent.service.WindowsService'
# mssql-jdbc loads exactly this name for Windows authentication (integratedSecurity); Maven Central does not serve it
# for this driver version, so it is not in the zip: docs\install.md says where to get it. It goes in bin\.
$authDll = 'mssql-jdbc_auth-13.6.2.x64.dll'
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

function Get-JavaCandidates {
    # Java homes in the order a Windows admin expects them to win: JAVA_HOME, then the installers' registry keys
    # (newest version first), then PATH. 64-bit PowerShell reads the 64-bit registry view, where 64-bit Javas register.
    if ($env:JAVA_HOME) {
        [pscustomobject]@{ Home = $env:JAVA_HOME; Source = 'JAVA_HOME' }
    }
    $registered = @()
    # Eclipse Temurin (and its AdoptOpenJDK predecessors) and the Microsoft Build of OpenJDK: <vendor>\<JDK|JRE>\<version>\hotspot\MSI, value Path
    foreach ($vendor in @('Eclipse Adoptium', 'Eclipse Foundation', 'AdoptOpenJDK', 'Microsoft')) {
        foreach ($kind in @('JDK', 'JRE')) {
            foreach ($key in @(Get-ChildItem -Path "HKLM:\SOFTWARE\$vendor\$kind" -ErrorAction SilentlyContinue)) {
                $msi = Get-ItemProperty -Path "$($key.PSPath)\hotspot\MSI" -Name 'Path' -ErrorAction SilentlyContinue
                if ($msi) {
                    $registered += [pscustomobject]@{ Home = $msi.Path; Source = "HKLM\SOFTWARE\$vendor\$kind\$($key.PSChildName)"; Version = $key.PSChildName }
                }
            }
        }
    }
    # Oracle JDK 9+ (and installers that add the "JavaSoft registry keys" feature): JavaSoft\<JDK|JRE>\<version>, value JavaHome
    foreach ($kind in @('JDK', 'JRE')) {
        foreach ($key in @(Get-ChildItem -Path "HKLM:\SOFTWARE\JavaSoft\$kind" -ErrorAction SilentlyContinue)) {
            $oracle = Get-ItemProperty -Path $key.PSPath -Name 'JavaHome' -ErrorAction SilentlyContinue
            if ($oracle) {
                $registered += [pscustomobject]@{ Home = $oracle.JavaHome; Source = "HKLM\SOFTWARE\JavaSoft\$kind\$($key.PSChildName)"; Version = $key.PSChildName }
            }
        }
    }
    $registered | Sort-Object -Descending -Property { ConvertTo-Version $_.Version }
    $onPath = Get-Command -Name 'java.exe' -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($onPath) {
        # ...\jdk-17\bin\java.exe -> ...\jdk-17
        [pscustomobject]@{ Home = (Split-Path -Parent (Split-Path -Parent $onPath.Path)); Source = "PATH ($($onPath.Path))" }
    }
}

function ConvertTo-Version {
    # '17.0.15.6' or '17.0.15+6' -> a [version] for sorting; anything unreadable sorts last
    param([string] $Text)
    $numbers = @([regex]::Matches($Text, '\d+') | ForEach-Object { [int] $_.Value } | Select-Object -First 4)
    while ($numbers.Count -lt 2) {
        $numbers += 0
    }
    New-Object -TypeName System.Version -ArgumentList $numbers
}

function Test-JavaHome {
    # why this folder cannot host the service, or $null when it can: bin\server\jvm.dll of a 64-bit Java 17+
    param([string] $Folder)
    $dll = Join-Path $Folder 'bin\server\jvm.dll'
    if (-not (Test-Path -LiteralPath $dll)) {
        return "$dll does not exist (not a Java runtime, or a client-only 32-bit one)"
    }
    $releaseFile = Join-Path $Folder 'release'
    if (Test-Path -LiteralPath $releaseFile) {
        $release = Get-Content -LiteralPath $releaseFile
        $version = $release | Select-String -Pattern '^JAVA_VERSION="(\d+)' | Select-Object -First 1
        if ($version -and [int] $version.Matches[0].Groups[1].Value -lt 17) {
            return "it is Java $($version.Matches[0].Groups[1].Value); qatwatch needs Java 17 or newer"
        }
        $arch = $release | Select-String -Pattern '^OS_ARCH="([^"]*)"' | Select-Object -First 1
        if ($arch -and $arch.Matches[0].Groups[1].Value -notin @('x86_64', 'amd64')) {
            return "it is a $($arch.Matches[0].Groups[1].Value) (32-bit) Java; prunsrv.exe is the x64 build and loads only a 64-bit jvm.dll"
        }
    } else {
        # no release file: read the machine type from jvm.dll's PE header (0x8664 is x64)
        $bytes = [System.IO.File]::ReadAllBytes($dll)
        $header = [System.BitConverter]::ToInt32($bytes, 0x3C)
        if ([System.BitConverter]::ToUInt16($bytes, $header + 4) -ne 0x8664) {
            return "$dll is not a 64-bit DLL; prunsrv.exe is the x64 build and loads only a 64-bit jvm.dll"
        }
    }
    return $null
}

function Set-CollectorSetting {
    # sets collector.<Key> in agent.yaml to a quoted value and keeps every other line, comments included
    param([string] $Path, [string] $Key, [string] $Value)
    $lines = New-Object -TypeName System.Collections.Generic.List[string]
    $lines.AddRange([System.IO.File]::ReadAllLines($Path))
    $quoted = "'" + $Value.Replace("'", "''") + "'"
    $section = -1
    for ($i = 0; $i -lt $lines.Count; $i++) {
        if ($lines[$i] -match '^collector:\s*(#.*)?$') {
            $section = $i
            break
        }
    }
    if ($section -lt 0) {
        $lines.Add('collector:')
        $section = $lines.Count - 1
    }
    $end = $lines.Count
    for ($i = $section + 1; $i -lt $lines.Count; $i++) {
        if ($lines[$i] -match '^[^\s#]') {
            $end = $i
            break
        }
    }
    for ($i = $section + 1; $i -lt $end; $i++) {
        if ($lines[$i] -match "^(\s+)$Key\s*:") {
            $lines[$i] = $Matches[1] + "${Key}: $quoted"
            [System.IO.File]::WriteAllLines($Path, $lines)
            return
        }
    }
    $lines.Insert($section + 1, "  ${Key}: $quoted")
    # WriteAllLines writes UTF-8 without a byte order mark, which the agent's YAML reader expects
    [System.IO.File]::WriteAllLines($Path, $lines)
}

# 1. Java 17+ and the files of this folder
if ($JavaHome) {
    $problem = Test-JavaHome $JavaHome
    if ($problem) {
        throw "-JavaHome $JavaHome cannot run the service: $problem."
    }
    $javaSource = '-JavaHome'
} else {
    $rejected = @()
    foreach ($candidate in @(Get-JavaCandidates)) {
        $problem = Test-JavaHome $candidate.Home
        if (-not $problem) {
            $JavaHome = $candidate.Home
            $javaSource = $candidate.Source
            break
        }
        $rejected += "  $($candidate.Source): $($candidate.Home): $problem"
    }
    if (-not $JavaHome) {
        throw ("No 64-bit Java 17 or newer found (JAVA_HOME, the Temurin, Microsoft and Oracle registry keys, PATH)." +
            " Install one (e.g. Eclipse Temurin 17 x64) or pass -JavaHome.`n" + ($rejected -join "`n"))
    }
}
$JavaHome = $JavaHome.TrimEnd('\')
$jvm = Join-Path $JavaHome 'bin\server\jvm.dll'
Write-Host "Java: $JavaHome (from $javaSource)"
if ($Token -and $TokenFile) {
    throw '-Token and -TokenFile are two ways to give the same token: give one of them.'
}
if ($TokenFile) {
    $firstLine = @(Get-Content -LiteralPath $TokenFile -TotalCount 1)
    if ($firstLine.Count -eq 0) {
        throw "-TokenFile $TokenFile is empty: it should hold the token on its first line."
    }
    $Token = $firstLine[0]
}
if ($Token) {
    $Token = $Token.Trim()
    if ($Token -notmatch '^\S+$') {
        throw 'The token is empty or has spaces: give the one word that "qatwatch collector token add" printed last.'
    }
}
if ($CollectorUrl -and $CollectorUrl -notmatch '^https?://[^\s/]+') {
    throw "-CollectorUrl $CollectorUrl is not an http:// or https:// URL (e.g. https://collector.example.org:8470)."
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

# The agent's class-data archive (AppCDS) for this Java and this jar: the classes the agent loads, mapped from the
# file (clean, shared) instead of parsed into private memory at each start (docs\install.md). Dumped again by each
# run of this script; after a Java update, run it again: until then the JVM ignores the stale archive.
$classList = Join-Path $installDir 'lib\qatwatch-agent.classlist'
$archive = Join-Path $installDir 'lib\qatwatch-agent.jsa'
$cdsOptions = ''
if (Test-Path -LiteralPath $classList) {
    Remove-Item -LiteralPath $archive -Force -ErrorAction SilentlyContinue
    # Start-Process, not &: Windows PowerShell 5.1 turns a native program's stderr into errors, which stop this script
    $dumpLog = Join-Path $logs 'class-data-archive.log'
    $dump = Start-Process -FilePath (Join-Path $JavaHome 'bin\java.exe') -NoNewWindow -Wait -PassThru `
        -RedirectStandardOutput $dumpLog -RedirectStandardError "$dumpLog.err" `
        -ArgumentList @('-Xshare:dump', "`"-XX:SharedClassListFile=$classList`"", "`"-XX:SharedArchiveFile=$archive`"",
            '-cp', "`"$jar`"")
    if ($dump.ExitCode -eq 0) {
        $cdsOptions = ";-XX:SharedArchiveFile=$archive;-Xshare:auto"
    } else {
        Write-Warning "The agent's class-data archive could not be dumped (see $logs\class-data-archive.log); it runs without it."
    }
}

$procrun = @(
    "--DisplayName=qatwatch agent",
    "--Description=qatwatch agent: Intel QAT, licence posture and SQL Server backup monitoring for this host",
    "--Startup=auto",
    "--Jvm=$jvm",
    "--Classpath=$jar",
    "--JvmMs=8",
    "--JvmMx=$MaxHeapMB",
    "--JvmSs=256",
    # the same small-footprint settings as the qatwatch launcher's agent defaults (docs/benchmarks.md, "Agent
    # footprint"), less the glibc-only TrimNativeHeapInterval; procrun splits them at ';'. java.library.path is bin\,
    # where mssql-jdbc finds its Windows authentication DLL.
    "--JvmOptions=-Djava.library.path=$installDir\bin;-Dfile.encoding=UTF-8;-XX:+UseSerialGC;-Xmn2m;-XX:-ShrinkHeapInSteps;-XX:MinHeapFreeRatio=5;-XX:MaxHeapFreeRatio=10;-XX:TieredStopAtLevel=1;-XX:CICompilerCount=1;-XX:Tier3InvocationThreshold=2000;-XX:Tier3MinInvocationThreshold=1000;-XX:Tier3CompileThreshold=20000;-XX:Tier3BackEdgeThreshold=600000;-XX:MaxMetaspaceSize=48m;-XX:ReservedCodeCacheSize=16m;-XX:MaxDirectMemorySize=16m;-Djdk.nio.maxCachedBufferSize=65536;-XX:-UsePerfData;-XX:+UnlockDiagnosticVMOptions;-XX:ArchiveRelocationMode=0;-XX:AsyncDeflationInterval=10000;-XX:GuaranteedSafepointInterval=0;-Dio.netty.allocator.type=unpooled;-Dio.netty.noPreferDirect=true;-Djava.awt.headless=true;-Dorg.slf4j.simpleLogger.showDateTime=true;-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd HH:mm:ss.SSSZ;-Dorg.slf4j.simpleLogger.log.io.netty=warn;-Dorg.slf4j.simpleLogger.log.io.vertx=warn$cdsOptions",
    "--StartMode=jvm",
    "--StartClass=$serviceClass",
    "--StartMethod=start",
    "--StartParams=--config;$config;--data;$state;--logs;$logs;--keep-log-days;$LogDays",
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
#    logs\; agent.yaml and agent.token are readable only by SYSTEM, Administrators and the account. The folders'
#    ACLs are set before any secret is written into them.
Invoke-Native 'icacls.exe' @($installDir, '/grant', "${account}:(OI)(CI)RX")
Invoke-Native 'icacls.exe' @($DataRoot, '/inheritance:r', '/grant:r', "${system}:(OI)(CI)F", "${administrators}:(OI)(CI)F", "${account}:(OI)(CI)RX")
Invoke-Native 'icacls.exe' @($state, '/grant:r', "${account}:(OI)(CI)M")
Invoke-Native 'icacls.exe' @($logs, '/grant:r', "${account}:(OI)(CI)M")
if (-not (Test-Path -LiteralPath $config)) {
    Copy-Item -LiteralPath $sample -Destination $config
}
if ($Token) {
    [System.IO.File]::WriteAllText($tokenPath, $Token + "`r`n")
    Invoke-Native 'icacls.exe' @($tokenPath, '/inheritance:r', '/grant:r', "${system}:F", "${administrators}:F", "${account}:R")
    Set-CollectorSetting -Path $config -Key 'tokenFile' -Value $tokenPath
    Write-Host "Token written to $tokenPath; agent.yaml names it (collector.tokenFile)."
}
if ($CollectorUrl) {
    Set-CollectorSetting -Path $config -Key 'url' -Value $CollectorUrl
    Write-Host "agent.yaml: collector.url is $CollectorUrl."
}
Invoke-Native 'icacls.exe' @($config, '/inheritance:r', '/grant:r', "${system}:F", "${administrators}:F", "${account}:R")
if (Test-Path -LiteralPath (Join-Path $installDir "bin\$authDll")) {
    Write-Host "Windows authentication to SQL Server: bin\$authDll is in place."
} else {
    $otherDll = @(Get-ChildItem -Path (Join-Path $installDir 'bin') -Filter 'mssql-jdbc_auth-*.dll' -ErrorAction SilentlyContinue)
    if ($otherDll.Count -gt 0) {
        Write-Warning "bin\$($otherDll[0].Name) does not match this agent's SQL Server driver: Windows authentication needs bin\$authDll."
    }
}

# 6. Start when asked to, or when it ran before the upgrade
if ($Start -or $wasRunning) {
    Start-Service -Name $ServiceName
    Write-Host "$ServiceName is running. Logs: $logs"
} else {
    Write-Host "$ServiceName is installed. Check $config (collector URL, token file, SQL Server), then: Start-Service $ServiceName"
}

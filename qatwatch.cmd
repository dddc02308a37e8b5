@echo off
rem qatwatch launcher (Windows). Commands: probe, agent, collector, up, demo, tds-server, version; see "qatwatch --help".
setlocal
if "%QATWATCH_HOME%"=="" set "QATWATCH_HOME=%~dp0"
if "%QATWATCH_HOME:~-1%"=="\" set "QATWATCH_HOME=%QATWATCH_HOME:~0,-1%"
set "JAVA=java"
if not "%JAVA_HOME%"=="" set "JAVA=%JAVA_HOME%\bin\java"

set "AGENT_JAR=%QATWATCH_HOME%\lib\qatwatch-agent.jar"
if not exist "%AGENT_JAR%" set "AGENT_JAR=%QATWATCH_HOME%\agent\target\qatwatch-agent-all.jar"
set "COLLECTOR_JAR=%QATWATCH_HOME%\lib\qatwatch-collector.jar"
if not exist "%COLLECTOR_JAR%" set "COLLECTOR_JAR=%QATWATCH_HOME%\collector\target\qatwatch-collector-all.jar"
set "TDS_JAR=%QATWATCH_HOME%\lib\qatwatch-tds-server.jar"
if not exist "%TDS_JAR%" set "TDS_JAR=%QATWATCH_HOME%\tds-test-server\target\qatwatch-tds-server-all.jar"
set "DEMO_JAR=%QATWATCH_HOME%\demo\target\qatwatch-demo.jar"

if "%QATWATCH_AGENT_JAVA_OPTS%"=="" set "QATWATCH_AGENT_JAVA_OPTS=-XX:+UseSerialGC -Xms8m -Xmx48m -XX:MaxMetaspaceSize=48m -Xss256k -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -XX:Tier3InvocationThreshold=2000 -XX:Tier3MinInvocationThreshold=1000 -XX:Tier3CompileThreshold=20000 -XX:Tier3BackEdgeThreshold=600000 -XX:ReservedCodeCacheSize=16m -XX:MaxDirectMemorySize=16m -XX:-UsePerfData -Xmn2m -XX:-ShrinkHeapInSteps -XX:MinHeapFreeRatio=5 -XX:MaxHeapFreeRatio=10 -Djdk.nio.maxCachedBufferSize=65536 -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0 -XX:AsyncDeflationInterval=10000 -XX:GuaranteedSafepointInterval=0 -Dio.netty.allocator.type=unpooled -Dio.netty.noPreferDirect=true -Djava.awt.headless=true"
if "%QATWATCH_PROBE_JAVA_OPTS%"=="" set "QATWATCH_PROBE_JAVA_OPTS=-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto"
if "%QATWATCH_JAVA_OPTS%"=="" set "QATWATCH_JAVA_OPTS=-Xms64m -XX:MaxRAMPercentage=25 -XX:+UseG1GC -XX:G1PeriodicGCInterval=60000 -XX:+ExplicitGCInvokesConcurrent -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:+ExitOnOutOfMemoryError"
rem QATWATCH_AGENT_JAVA_OPTS / QATWATCH_JAVA_OPTS replace these defaults; QATWATCH_AGENT_EXTRA_JAVA_OPTS /
rem QATWATCH_EXTRA_JAVA_OPTS are added after them (a trust store, a larger heap) and keep the rest.

set "CMD=%~1"
if "%CMD%"=="probe" goto agentjar_probe
if "%CMD%"=="agent" goto agentjar
if "%CMD%"=="version" goto agentjar_probe
if "%CMD%"=="collector" goto collectorjar
if "%CMD%"=="up" goto collectorjar
if "%CMD%"=="tds-server" goto tdsjar
if "%CMD%"=="demo" goto demojar
if "%CMD%"=="-V" goto agentjar_version
if "%CMD%"=="--version" goto agentjar_version
echo Usage: qatwatch up ^| probe [--json] ^| agent --config FILE ^| collector [--config FILE] ^| collector token add^|list^|revoke NAME ^| demo ^| tds-server --scenario FILE [--port N] ^| version
if "%CMD%"=="" exit /b 2
if "%CMD%"=="--help" exit /b 0
exit /b 2

:agentjar_probe
if not exist "%AGENT_JAR%" goto missing
"%JAVA%" %QATWATCH_PROBE_JAVA_OPTS% -jar "%AGENT_JAR%" %*
exit /b %ERRORLEVEL%

:agentjar
if not exist "%AGENT_JAR%" goto missing
"%JAVA%" %QATWATCH_AGENT_JAVA_OPTS% %QATWATCH_AGENT_EXTRA_JAVA_OPTS% -jar "%AGENT_JAR%" %*
exit /b %ERRORLEVEL%

:collectorjar
if not exist "%COLLECTOR_JAR%" goto missing
"%JAVA%" %QATWATCH_JAVA_OPTS% %QATWATCH_EXTRA_JAVA_OPTS% "-Dqatwatch.agentJar=%AGENT_JAR%" "-Dqatwatch.agentJavaOpts=%QATWATCH_AGENT_JAVA_OPTS% %QATWATCH_AGENT_EXTRA_JAVA_OPTS%" -jar "%COLLECTOR_JAR%" %*
exit /b %ERRORLEVEL%

:tdsjar
if not exist "%TDS_JAR%" goto missing
"%JAVA%" %QATWATCH_PROBE_JAVA_OPTS% -jar "%TDS_JAR%" %*
exit /b %ERRORLEVEL%

:demojar
if not exist "%DEMO_JAR%" goto missing
"%JAVA%" %QATWATCH_JAVA_OPTS% -cp "%DEMO_JAR%;%COLLECTOR_JAR%;%AGENT_JAR%;%TDS_JAR%" io.qatwatch.demo.DemoMain %*
exit /b %ERRORLEVEL%

:agentjar_version
if not exist "%AGENT_JAR%" goto missing
"%JAVA%" %QATWATCH_PROBE_JAVA_OPTS% -jar "%AGENT_JAR%" version
exit /b %ERRORLEVEL%

:missing
echo qatwatch: the jars are missing. In a source checkout run: mvn -B -DskipTests package 1>&2
exit /b 1

#!/usr/bin/env python3
"""Writes the fleet fixtures under collector/src/test/resources/fleets/: agent reports (JSON, as an agent sends
them to POST /api/v1/reports) of SQL Server hosts whose backup schedules the collector's analysis must tell
apart. Re-run after editing a scenario, then regenerate the golden outputs with -Dqatwatch.regenerateGolden=true
and review the diff."""
import datetime as dt
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FLEETS = os.path.normpath(os.path.join(HERE, "..", "resources", "fleets"))
UTC = dt.timezone.utc
GIB = 1 << 30


def iso(t):
    text = t.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return text.replace(".000Z", "Z")


def backup(set_id, database, guid, kind, start, minutes, size, ratio, target):
    finish = start + dt.timedelta(minutes=minutes)
    return {"backupSetId": set_id, "databaseName": database, "databaseGuid": guid, "type": kind, "copyOnly": False,
            "startedAt": iso(start), "finishedAt": iso(finish), "timeZoneKnown": True,
            "backupSizeBytes": size, "compressedSizeBytes": int(size / ratio), "compressionAlgorithm": "QAT_DEFLATE",
            "hasChecksums": True, "keyAlgorithm": None, "encryptorThumbprint": None, "encryptorType": None,
            "deviceType": "DISK", "target": target}


def windows_host(name):
    """Host, QAT and licence facts of a Windows Server 2022 host with one 4xxx PF, as the agent's probe reports them."""
    return {
        "host": {"hostname": name,
                 "cpu": {"vendor": "GenuineIntel", "model": "Intel(R) Xeon(R) Gold 6438Y+", "sockets": 2, "logicalCores": 128},
                 "system": {"manufacturer": "HPE", "model": "ProLiant DL380 Gen11"}, "virtualization": None,
                 "os": {"family": "windows", "name": "Windows Server 2022 Datacenter", "version": "10.0.20348"},
                 "memoryBytes": 549755813888},
        "qat": {"devices": [{"address": "PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40\\6&18a3c7e2&0&00000008",
                             "pciId": "8086:4940", "function": "PF", "generation": "4xxx",
                             "name": "Intel(R) 4xxx Accelerator", "driver": "icp_qat4", "state": None, "services": []}],
                "software": {"drivers": [{"name": "icp_qat4", "path": "\\SystemRoot\\System32\\drivers\\icp_qat4.sys",
                                          "version": "2.4.0.14", "state": "manual"}],
                             "kernelModules": [], "firmware": [], "libraries": [], "services": [], "deviceNodes": [],
                             "zlibAccelEngines": []},
                "compressionReady": True},
        "licence": {"verdict": "INTEL_QAT_HARDWARE",
                    "intelComponents": [{"kind": "CPU", "pciId": None, "description": "Intel(R) Xeon(R) Gold 6438Y+", "emulated": False},
                                        {"kind": "QAT", "pciId": "8086:4940", "description": "Intel(R) 4xxx Accelerator", "emulated": False}],
                    "qatSoftwareInstalled": True,
                    "notes": ["Intel QAT hardware present (1 physical function): the QAT driver is used with an Intel component."]},
    }


def report(name, report_id, created, instance):
    r = {"schemaVersion": 1, "reportId": report_id, "createdAt": iso(created),
         "agent": {"name": name, "version": "0.1.0", "uptimeSeconds": 600, "outboxDepth": 0, "outboxDroppedTotal": 0,
                   "outboxCorruptTotal": 0}}
    r.update(windows_host(name))
    r["instances"] = [instance]
    r["probes"] = [{"name": n, "ok": True, "durationMs": ms, "error": None, "hint": None}
                   for n, ms in (("registry", 9), ("host", 1), ("pci", 2), ("qat", 1), ("licence", 0),
                                 ("sqlserver:MSSQLSERVER", 184))]
    return r


def instance(collected, databases, backups):
    return {"name": "MSSQLSERVER", "collectedAt": iso(collected),
            "server": {"productVersion": "16.0.4165.4", "majorVersion": 16,
                       "edition": "Enterprise Edition: Core-based Licensing (64-bit)", "engineEdition": 3,
                       "machineName": "SQL05", "serverName": "SQL05", "hadrEnabled": False},
            "configuration": [{"name": "hardware offload enabled", "value": 1, "valueInUse": 1},
                              {"name": "backup compression algorithm", "value": 2, "valueInUse": 2},
                              {"name": "backup compression default", "value": 1, "valueInUse": 1}],
            "accelerators": [{"accelerator": "QAT", "modeDesc": "HARDWARE", "modeReasonDesc": "HARDWARE_MODE_ENTERPRISE_SKU",
                              "hardwareDetected": True, "libraryVersion": "1.8.0-0010", "driverVersion": "2.4.0.14"}],
            "databases": [{"name": n, "databaseGuid": g, "recoveryModel": "FULL", "encryptionState": "NONE",
                           "availabilityGroup": None, "replicaRole": None, "preferredBackupReplica": None}
                          for n, g in databases],
            "backups": backups, "runningBackups": [], "certificates": [],
            "backupHighWaterMark": backups[-1]["backupSetId"]}


def write(scenario, host, data):
    """The host's report; the scenario's golden files next to it are the test's to write."""
    folder = os.path.join(FLEETS, scenario)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, host + ".json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


def weekly_fulls_nightly_diffs():
    """sql05 after its agent was installed: its first report carries eight weeks of msdb history. Sales (2 TB) has
    a weekly full on Sunday night and differentials Monday to Thursday night; HR a small full every night. Both
    the weekend windows (the fulls) and the weekday windows (the differentials) end later week after week, at
    different rates: two creep trends and two backup-window-creep alerts of one instance, told apart only by
    the kind of night."""
    scenario = "weekly-fulls-nightly-diffs"
    sales = ("Sales", "6a1f3c52-8e0d-4b7a-9c21-5d4e3f2a1b07")
    hr = ("HR", "0b9e8d7c-6f5a-4e3d-8c2b-1a0f9e8d7c6b")
    latest_sunday = dt.date(2026, 11, 29)
    first_night = dt.date(2026, 10, 4)
    backups = []
    set_id = 88000
    day = first_night
    while day <= latest_sunday:
        weekday = day.weekday()  # Monday 0 ... Sunday 6
        evening = dt.datetime.combine(day, dt.time(), UTC)
        days_before = (latest_sunday - day).days
        if weekday in (0, 1, 2, 3, 6):
            set_id += 1
            backups.append(backup(set_id, hr[0], hr[1], "D", evening + dt.timedelta(hours=20, minutes=30),
                                  18 + (set_id % 3), (38 + (60 - days_before) // 10) * GIB, 3.1, "LOCAL"))
        if weekday == 6:
            # The weekend window: margin 85 min on the latest Sunday, 15 min more each week before (-2.14 min/day).
            weeks_before = days_before // 7
            margin = 85 + 15 * weeks_before
            set_id += 1
            backups.append(backup(set_id, sales[0], sales[1], "D", evening + dt.timedelta(hours=21),
                                  600 - margin, (2150 - 12 * weeks_before) * GIB, 2.9, "UNC"))
        elif weekday in (0, 1, 2, 3):
            # Weekday windows: margin 90 min on the latest Thursday, 2 min a day more before it, a minute of jitter.
            thursday = latest_sunday - dt.timedelta(days=3)
            margin = 90 + 2 * (thursday - day).days + ((day.toordinal() * 7) % 3 - 1)
            set_id += 1
            backups.append(backup(set_id, sales[0], sales[1], "I", evening + dt.timedelta(hours=22),
                                  540 - margin, (180 + 25 * weekday + (60 - days_before) // 4) * GIB, 3.4, "UNC"))
        day += dt.timedelta(days=1)
    created = dt.datetime(2026, 11, 30, 8, 55, tzinfo=UTC)
    write(scenario, "sql05", report("sql05", "c0ffee05-0000-4000-8000-000000000001", created,
                                    instance(created - dt.timedelta(seconds=3), (sales, hr), backups)))


if __name__ == "__main__":
    weekly_fulls_nightly_diffs()
    print("fixtures written to " + FLEETS, file=sys.stderr)

#!/usr/bin/env python3
"""Writes the host scenario fixtures under agent/src/test/resources/hosts/: fake Linux roots laid out like
the real proc/ and sysfs (device folders under sys/devices, sys/bus/pci/devices and driver links as
relative symbolic links, ids as 0x-prefixed hex) and Windows 'reg export' files. Re-run after editing a
scenario, then regenerate the golden outputs with -Dqatwatch.regenerateGolden=true and review the diff."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HOSTS = os.path.normpath(os.path.join(HERE, "..", "resources", "hosts"))

PCI_IDS = """#
#	List of PCI ID's (excerpt kept for qatwatch tests)
#
#	Syntax:
#	vendor  vendor_name
#		device  device_name				<-- single tab
#			subvendor subdevice  subsystem_name	<-- two tabs
#
1000  Broadcom / LSI
	10e2  MegaRAID 12GSAS/PCIe Secure SAS39xx
1022  Advanced Micro Devices, Inc. [AMD]
	1480  Starship/Matisse Root Complex
	14a4  Genoa/Bergamo Root Complex
1234  Technical Corp.
	1111  QEMU Virtual Video Controller
14e4  Broadcom Inc. and subsidiaries
	16d7  BCM57414 NetXtreme-E 10Gb/25Gb RDMA Ethernet Controller
15ad  VMware
	0405  SVGA II Adapter
	0740  Virtual Machine Communication Interface
	07a0  PCI Express Root Port
	07b0  VMXNET3 Ethernet Controller
	07c0  PVSCSI SCSI Controller
15b3  Mellanox Technologies
	101a  MT28800 Family [ConnectX-5 Ex Virtual Function]
1af4  Red Hat, Inc.
	1000  Virtio network device
	1001  Virtio block device
	1041  Virtio 1.0 network device
	1042  Virtio 1.0 block device
1b36  Red Hat, Inc.
	000c  QEMU PCIe Root port
8086  Intel Corporation
	100e  82540EM Gigabit Ethernet Controller
	100f  82545EM Gigabit Ethernet Controller (Copper)
		15ad 0750  PRO/1000 MT Single Port Adapter
	1237  440FX - 82441FX PMC [Natoma]
	1521  I350 Gigabit Network Connection
	159b  Ethernet Controller E810-XXV for SFP
	2918  82801IB (ICH9) LPC Interface Controller
	2922  82801IR/IO/IH (ICH9R/DO/DH) 6 port SATA Controller [AHCI mode]
	2930  82801I (ICH9 Family) SMBus Controller
	29c0  82G33/G31/P35/P31 Express DRAM Controller
	37c8  C62x Chipset QuickAssist Technology
	37c9  C62x Chipset QuickAssist Technology Virtual Function
	37d2  Ethernet Connection X722 for 10GBASE-T
	4940  4xxx Series QAT
	4941  4xxx Series QAT Virtual Function
	7000  82371SB PIIX3 ISA [Natoma/Triton II]
	7010  82371SB PIIX3 IDE [Natoma/Triton II]
	7020  82371SB PIIX3 USB [Natoma/Triton II]
	7110  82371AB/EB/MB PIIX4 ISA
	7111  82371AB/EB/MB PIIX4 IDE
	7113  82371AB/EB/MB PIIX4 ACPI
	7190  440BX/ZX/DX - 82443BX/ZX/DX Host bridge
	7191  440BX/ZX/DX - 82443BX/ZX/DX AGP bridge
	a1c1  C621 Series Chipset LPC/eSPI Controller
# List of known device classes, subclasses and programming interfaces
C 00  Unclassified device
C 02  Network controller
	00  Ethernet controller
"""

INTEL_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse"
               " sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl"
               " xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est"
               " tm2 ssse3 sdbg fma cx16 xtpr pdcm pcid dca sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes"
               " xsave avx f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb cat_l3 cat_l2 cdp_l3 invpcid_single"
               " intel_ppin ssbd mba ibrs ibpb stibp ibrs_enhanced tpr_shadow flexpriority ept vpid ept_ad fsgsbase"
               " tsc_adjust bmi1 hle avx2 smep bmi2 erms invpcid rtm cqm rdt_a avx512f avx512dq rdseed adx smap"
               " avx512ifma clflushopt clwb intel_pt avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves"
               " cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local split_lock_detect avx_vnni avx512_bf16 wbnoinvd dtherm"
               " ida arat pln pts hfi vnmi avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni vaes vpclmulqdq"
               " avx512_vnni avx512_bitalg tme avx512_vpopcntdq la57 rdpid bus_lock_detect cldemote movdiri movdir64b"
               " enqcmd fsrm md_clear serialize tsxldtrk pconfig arch_lbr ibt amx_bf16 avx512_fp16 amx_tile amx_int8"
               " flush_l1d arch_capabilities")
AMD_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht"
             " syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good amd_lbr_v2 nopl nonstop_tsc cpuid"
             " extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt"
             " aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy abm sse4a misalignsse 3dnowprefetch"
             " osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc mwaitx cpb cat_l3 cdp_l3"
             " hw_pstate ssbd mba perfmon_v2 ibrs ibpb stibp ibrs_enhanced vmmcall fsgsbase bmi1 avx2 smep bmi2 erms"
             " invpcid cqm rdt_a avx512f avx512dq rdseed adx smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw"
             " avx512vl xsaveopt xsavec xgetbv1 xsaves cqm_llc cqm_occup_llc cqm_mbm_total cqm_mbm_local avx512_bf16"
             " clzero irperf xsaveerptr rdpru wbnoinvd amd_ppin cppc arat npt lbrv svm_lock nrip_save tsc_scale"
             " vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic v_vmsave_vmload vgif x2avic"
             " v_spec_ctrl vnmi avx512vbmi umip pku ospke avx512_vbmi2 gfni vaes vpclmulqdq avx512_vnni avx512_bitalg"
             " avx512_vpopcntdq la57 rdpid overflow_recov succor smca fsrm flush_l1d")


class Root:
    def __init__(self, name):
        self.path = os.path.join(HOSTS, name)
        if os.path.lexists(self.path):
            shutil.rmtree(self.path)
        os.makedirs(self.path)

    def write(self, rel, text):
        full = os.path.join(self.path, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)

    def mkdir(self, rel):
        os.makedirs(os.path.join(self.path, rel), exist_ok=True)

    def link(self, rel, target):
        """A relative symbolic link, as sysfs has them; target is relative to the root."""
        full = os.path.join(self.path, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if target.startswith("/"):
            os.symlink(target, full)
        else:
            os.symlink(os.path.relpath(os.path.join(self.path, target), os.path.dirname(full)), full)

    def cpuinfo(self, vendor, family, model_no, model, sockets, threads_per_socket, flags, hypervisor, mhz="2000.000"):
        if hypervisor:
            flags = flags.replace(" ht ", " ht ").replace(" lm ", " lm ") + " hypervisor"
        blocks = []
        n = 0
        for socket in range(sockets):
            for t in range(threads_per_socket):
                blocks.append(
                    f"processor\t: {n}\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: {model_no}\n"
                    f"model name\t: {model}\nstepping\t: 8\nmicrocode\t: 0x2b0004d0\ncpu MHz\t\t: {mhz}\n"
                    f"cache size\t: 61440 KB\nphysical id\t: {socket}\nsiblings\t: {threads_per_socket}\n"
                    f"core id\t\t: {t // 2}\ncpu cores\t: {max(1, threads_per_socket // 2)}\napicid\t\t: {n * 2}\n"
                    f"initial apicid\t: {n * 2}\nfpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 32\nwp\t\t: yes\n"
                    f"flags\t\t: {flags}\nbugs\t\t: spectre_v1 spectre_v2 spec_store_bypass swapgs\n"
                    f"bogomips\t: 4000.00\nclflush size\t: 64\ncache_alignment\t: 64\n"
                    f"address sizes\t: 46 bits physical, 57 bits virtual\npower management:\n")
                n += 1
        self.write("proc/cpuinfo", "\n".join(blocks) + "\n")

    def dmi(self, sys_vendor, product, bios_vendor, board_vendor=None):
        base = "sys/devices/virtual/dmi/id/"
        self.write(base + "sys_vendor", sys_vendor + "\n")
        self.write(base + "product_name", product + "\n")
        self.write(base + "bios_vendor", bios_vendor + "\n")
        self.write(base + "board_vendor", (board_vendor or sys_vendor) + "\n")
        self.link("sys/class/dmi/id", "sys/devices/virtual/dmi/id")

    def basics(self, hostname, pretty, version_id, mem_kib):
        self.write("proc/sys/kernel/hostname", hostname + "\n")
        self.write("etc/hostname", hostname + "\n")
        os_id = pretty.split()[0].lower()
        self.write("etc/os-release", f'NAME="{pretty.rsplit(" ", 1)[0]}"\nVERSION_ID="{version_id}"\nID={os_id}\n'
                                     f'PRETTY_NAME="{pretty}"\n')
        self.write("proc/meminfo", f"MemTotal:       {mem_kib} kB\nMemFree:        {mem_kib // 3} kB\n"
                                   f"MemAvailable:   {mem_kib // 2} kB\n")

    def pci(self, bdf, vendor, device, cls, driver=None, module=None, parent=None, qat=None, subsystem=("0x8086", "0x0000")):
        domain_bus = bdf[:7]
        folder = f"sys/devices/pci{domain_bus}/" + (parent + "/" if parent else "") + bdf
        self.write(folder + "/vendor", vendor + "\n")
        self.write(folder + "/device", device + "\n")
        self.write(folder + "/class", cls + "\n")
        self.write(folder + "/subsystem_vendor", subsystem[0] + "\n")
        self.write(folder + "/subsystem_device", subsystem[1] + "\n")
        self.write(folder + "/enable", "1\n")
        self.link("sys/bus/pci/devices/" + bdf, folder)
        if driver:
            for control in ("bind", "unbind", "new_id", "remove_id", "uevent"):
                self.write(f"sys/bus/pci/drivers/{driver}/{control}", "")
            self.link(folder + "/driver", "sys/bus/pci/drivers/" + driver)
            # The kernel also links drivers/<name>/<address> back to the device; left out so that the tree
            # has no cycle for tools that follow links (Maven's resource scanner does).
            if module:
                self.module(module)
                if not os.path.lexists(os.path.join(self.path, f"sys/bus/pci/drivers/{driver}/module")):
                    self.link(f"sys/bus/pci/drivers/{driver}/module", "sys/module/" + module)
        if qat:
            state, services = qat
            self.write(folder + "/qat/state", state + "\n")
            self.write(folder + "/qat/cfg_services", services + "\n")
        return folder

    def module(self, name, version=None):
        self.write(f"sys/module/{name}/initstate", "live\n")
        self.write(f"sys/module/{name}/refcnt", "0\n")
        if version:
            self.write(f"sys/module/{name}/version", version + "\n")

    def library(self, folder, real, *links):
        self.write(f"{folder}/{real}", "\x7fELF (placeholder for a shared library)\n")
        for name in links:
            self.link(f"{folder}/{name}", f"{folder}/{real}")

    def firmware(self, *names):
        for n in names:
            self.write("lib/firmware/" + n, "placeholder firmware image\n")

    def pci_ids(self, rel="usr/share/misc/pci.ids"):
        self.write(rel, PCI_IDS)

    def qat_service(self, enabled, folder="usr/lib/systemd/system"):
        self.write(f"{folder}/qat.service", "[Unit]\nDescription=QAT service\n\n[Service]\nType=forking\n"
                                            "ExecStart=/usr/sbin/qat_init.sh\nExecStart=/usr/sbin/qatmgr\n\n"
                                            "[Install]\nWantedBy=multi-user.target\n")
        if enabled:
            self.link("etc/systemd/system/multi-user.target.wants/qat.service", f"/{folder}/qat.service")

    def dev(self, *nodes):
        for n in nodes:
            self.write("dev/" + n, "")


def common_modules(root, *names):
    for n in names:
        root.module(n)


def spr_4xxx_dc_up():
    r = Root("linux-spr-4xxx-dc-up")
    r.basics("sql-lnx01", "Red Hat Enterprise Linux 9.4 (Plow)", "9.4", 527958364)
    r.cpuinfo("GenuineIntel", 6, 143, "Intel(R) Xeon(R) Gold 6438Y+", 2, 64, INTEL_FLAGS, False)
    r.dmi("Dell Inc.", "PowerEdge R760", "Dell Inc.")
    r.pci("0000:00:00.0", "0x8086", "0x09a2", "0x088000")
    r.pci("0000:16:00.0", "0x8086", "0x159b", "0x020000", "ice", "ice")
    r.pci("0000:16:00.1", "0x8086", "0x159b", "0x020000", "ice", "ice")
    for bdf, services in (("0000:6b:00.0", "dc"), ("0000:70:00.0", "sym;asym"),
                          ("0000:e8:00.0", "dc"), ("0000:ed:00.0", "sym;asym")):
        r.pci(bdf, "0x8086", "0x4940", "0x0b4000", "4xxx", "qat_4xxx", qat=("up", services))
    r.pci("0000:4a:00.0", "0x1000", "0x10e2", "0x010400", "megaraid_sas", "megaraid_sas", subsystem=("0x1028", "0x2175"))
    r.module("intel_qat")
    common_modules(r, "vfio_pci", "nvme", "xfs")
    r.firmware("qat_4xxx.bin.xz", "qat_4xxx_mmp.bin.xz", "qat_402xx.bin.xz", "qat_402xx_mmp.bin.xz",
               "LICENCE.qat_firmware")
    r.library("usr/lib64", "libqat.so.4.2.0", "libqat.so.4")
    r.library("usr/lib64", "libusdm.so.0.1.0", "libusdm.so.0")
    r.library("usr/lib64", "libqatzip.so.3.0.3", "libqatzip.so.3")
    r.qat_service(True)
    r.dev("qat_adf_ctl", "vfio/vfio")
    r.write("etc/zlib-accel.conf", "# zlib-accel: engines used for deflate and inflate\nuse_qat_compress = 1\n"
                                   "use_qat_uncompress = 1\nuse_iaa_compress = 0\nuse_iaa_uncompress = 0\n"
                                   "use_zlib_compress = 1\nuse_zlib_uncompress = 1\nlog_level = 2\n")
    r.pci_ids("usr/share/hwdata/pci.ids")


def spr_4xxx_crypto_only():
    r = Root("linux-spr-4xxx-crypto-only")
    r.basics("vpn-gw02", "Ubuntu 24.04.1 LTS", "24.04", 263979182)
    r.cpuinfo("GenuineIntel", 6, 143, "Intel(R) Xeon(R) Gold 6430", 1, 64, INTEL_FLAGS, False)
    r.dmi("HPE", "ProLiant DL380 Gen11", "HPE")
    r.pci("0000:6b:00.0", "0x8086", "0x4940", "0x0b4000", "4xxx", "qat_4xxx", qat=("up", "sym;asym"))
    r.pci("0000:70:00.0", "0x8086", "0x4940", "0x0b4000", "4xxx", "qat_4xxx", qat=("up", "asym;sym"))
    r.pci("0000:31:00.0", "0x8086", "0x1521", "0x020000", "igb", "igb")
    r.module("intel_qat")
    r.firmware("qat_4xxx.bin.zst", "qat_4xxx_mmp.bin.zst")
    r.library("usr/lib/x86_64-linux-gnu", "libqat.so.4.2.0", "libqat.so.4")
    r.library("usr/lib/x86_64-linux-gnu", "libusdm.so.0.1.0", "libusdm.so.0")
    r.qat_service(True, "lib/systemd/system")
    r.dev("qat_adf_ctl", "vfio/vfio")
    r.pci_ids()


def c62x_lewisburg():
    r = Root("linux-c62x-lewisburg")
    r.basics("sql-lnx-old", "Rocky Linux 8.10 (Green Obsidian)", "8.10", 395923412)
    r.cpuinfo("GenuineIntel", 6, 85, "Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz", 2, 48,
              INTEL_FLAGS.split(" amx_bf16")[0], False)
    r.dmi("Supermicro", "SYS-2029U-TR4", "American Megatrends Inc.")
    r.pci("0000:00:1f.0", "0x8086", "0xa1c1", "0x060100")
    r.pci("0000:3d:00.0", "0x8086", "0x37d2", "0x020000", "i40e", "i40e")
    for bdf in ("0000:3f:00.0", "0000:da:00.0", "0000:dc:00.0"):
        r.pci(bdf, "0x8086", "0x37c8", "0x0b4000", "c6xx", "qat_c62x")
    r.module("intel_qat", "4.24.0-00005")
    r.module("usdm_drv", "4.24.0-00005")
    r.firmware("qat_c62x.bin", "qat_c62x_mmp.bin")
    r.library("usr/local/lib", "libqat_s.so")
    r.library("usr/local/lib", "libusdm_drv_s.so")
    r.library("usr/local/lib", "libqatzip.so.3.0.1", "libqatzip.so.3", "libqatzip.so")
    r.write("etc/init.d/qat_service", "#!/bin/sh\n# QAT out-of-tree driver service (adf_ctl)\n")
    r.dev("qat_adf_ctl", "qat_dev_processes", "usdm_drv")


def kvm_guest_4xxx_vfs():
    r = Root("linux-kvm-guest-4xxx-vfs")
    r.basics("sql-vm07", "Rocky Linux 9.4 (Blue Onyx)", "9.4", 65536000)
    r.cpuinfo("GenuineIntel", 6, 143, "Intel Xeon Processor (SapphireRapids)", 1, 16, INTEL_FLAGS, True)
    r.dmi("QEMU", "Standard PC (Q35 + ICH9, 2009)", "SeaBIOS")
    r.pci("0000:00:00.0", "0x8086", "0x29c0", "0x060000", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:01.0", "0x1234", "0x1111", "0x030000", "bochs-drm", "bochs", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:02.0", "0x1b36", "0x000c", "0x060400", "pcieport", subsystem=("0x1b36", "0x0000"))
    r.pci("0000:00:1f.0", "0x8086", "0x2918", "0x060100", "lpc_ich", "lpc_ich", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:1f.2", "0x8086", "0x2922", "0x010601", "ahci", "ahci", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:1f.3", "0x8086", "0x2930", "0x0c0500", "i801_smbus", "i2c_i801", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:01:00.0", "0x1af4", "0x1041", "0x020000", "virtio-pci", "virtio_pci", parent="0000:00:02.0",
          subsystem=("0x1af4", "0x1100"))
    r.pci("0000:02:00.0", "0x1af4", "0x1042", "0x010000", "virtio-pci", "virtio_pci", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:03:00.0", "0x8086", "0x4941", "0x0b4000", "vfio-pci", "vfio_pci")
    r.pci("0000:04:00.0", "0x8086", "0x4941", "0x0b4000", "vfio-pci", "vfio_pci")
    r.library("usr/lib64", "libqat.so.4.2.0", "libqat.so.4")
    r.library("usr/lib64", "libusdm.so.0.1.0", "libusdm.so.0")
    r.library("usr/lib64", "libqatzip.so.3.0.3", "libqatzip.so.3")
    r.qat_service(True)
    r.dev("vfio/vfio", "vfio/12", "vfio/13")
    r.pci_ids("usr/share/hwdata/pci.ids")


def kvm_guest_epyc():
    r = Root("linux-kvm-guest-epyc-e1000")
    r.basics("backup-vm3", "Debian GNU/Linux 12 (bookworm)", "12", 16384000)
    r.cpuinfo("AuthenticAMD", 25, 1, "AMD EPYC-Milan Processor", 1, 8, AMD_FLAGS, True)
    r.dmi("QEMU", "Standard PC (i440FX + PIIX, 1996)", "SeaBIOS")
    r.pci("0000:00:00.0", "0x8086", "0x1237", "0x060000", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:01.0", "0x8086", "0x7000", "0x060100", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:01.1", "0x8086", "0x7010", "0x010180", "ata_piix", "ata_piix", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:01.3", "0x8086", "0x7113", "0x068000", "piix4_smbus", "i2c_piix4", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:02.0", "0x1234", "0x1111", "0x030000", "bochs-drm", "bochs", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:03.0", "0x8086", "0x100e", "0x020000", "e1000", "e1000", subsystem=("0x1af4", "0x1100"))
    r.pci("0000:00:04.0", "0x1af4", "0x1001", "0x010000", "virtio-pci", "virtio_pci", subsystem=("0x1af4", "0x0002"))
    r.library("usr/lib/x86_64-linux-gnu", "libqatzip.so.3.0.3", "libqatzip.so.3")
    r.pci_ids()


def epyc_intel_nic():
    r = Root("linux-epyc-intel-nic")
    r.basics("sql-amd01", "Ubuntu 22.04.4 LTS", "22.04", 791937552)
    r.cpuinfo("AuthenticAMD", 25, 17, "AMD EPYC 9354 32-Core Processor", 2, 64, AMD_FLAGS, False)
    r.dmi("Dell Inc.", "PowerEdge R7625", "Dell Inc.")
    r.pci("0000:00:00.0", "0x1022", "0x14a4", "0x060000", subsystem=("0x1022", "0x14a4"))
    r.pci("0000:40:00.0", "0x1022", "0x14a4", "0x060000", subsystem=("0x1022", "0x14a4"))
    r.pci("0000:41:00.0", "0x8086", "0x159b", "0x020000", "ice", "ice", subsystem=("0x8086", "0x0003"))
    r.pci("0000:41:00.1", "0x8086", "0x159b", "0x020000", "ice", "ice", subsystem=("0x8086", "0x0003"))
    r.pci("0000:01:00.0", "0x1000", "0x10e2", "0x010400", "megaraid_sas", "megaraid_sas", subsystem=("0x1028", "0x2175"))
    r.library("usr/lib/x86_64-linux-gnu", "libqatzip.so.3.0.3", "libqatzip.so.3")
    r.write("etc/zlib-accel.conf", "use_qat_compress=0\nuse_qat_uncompress=0\nuse_iaa_compress=0\n"
                                   "use_iaa_uncompress=0\nuse_zlib_compress=1\nuse_zlib_uncompress=1\n")
    r.pci_ids()


def epyc_no_intel_qat_libs():
    r = Root("linux-epyc-no-intel-qat-libs")
    r.basics("sql-amd02", "Rocky Linux 9.4 (Blue Onyx)", "9.4", 263979182)
    r.cpuinfo("AuthenticAMD", 25, 1, "AMD EPYC 7313 16-Core Processor", 2, 32, AMD_FLAGS, False)
    r.dmi("Lenovo", "ThinkSystem SR665", "Lenovo")
    r.pci("0000:00:00.0", "0x1022", "0x1480", "0x060000", subsystem=("0x1d7d", "0x1480"))
    r.pci("0000:c1:00.0", "0x14e4", "0x16d7", "0x020000", "bnxt_en", "bnxt_en", subsystem=("0x14e4", "0x1402"))
    r.pci("0000:c1:00.1", "0x14e4", "0x16d7", "0x020000", "bnxt_en", "bnxt_en", subsystem=("0x14e4", "0x1402"))
    r.library("usr/lib64", "libqat.so.4.2.0", "libqat.so.4")
    r.library("usr/lib64", "libusdm.so.0.1.0", "libusdm.so.0")
    r.library("usr/lib64", "libqatzip.so.3.0.3", "libqatzip.so.3")
    r.qat_service(False)
    r.pci_ids("usr/share/hwdata/pci.ids")


def vmware_guest():
    r = Root("linux-vmware-guest-epyc")
    r.basics("sql-vmw12", "SUSE Linux Enterprise Server 15 SP5", "15-SP5", 32768000)
    r.cpuinfo("AuthenticAMD", 25, 1, "AMD EPYC 7543 32-Core Processor", 2, 4, AMD_FLAGS, True)
    r.dmi("VMware, Inc.", "VMware Virtual Platform", "Phoenix Technologies LTD", "Intel Corporation")
    vm = ("0x15ad", "0x1976")
    r.pci("0000:00:00.0", "0x8086", "0x7190", "0x060000", subsystem=vm)
    r.pci("0000:00:01.0", "0x8086", "0x7191", "0x060400", subsystem=("0x0000", "0x0000"))
    r.pci("0000:00:07.0", "0x8086", "0x7110", "0x060100", subsystem=vm)
    r.pci("0000:00:07.1", "0x8086", "0x7111", "0x01018a", "ata_piix", "ata_piix", subsystem=vm)
    r.pci("0000:00:07.3", "0x8086", "0x7113", "0x068000", "piix4_smbus", "i2c_piix4", subsystem=vm)
    r.pci("0000:00:07.7", "0x15ad", "0x0740", "0x088000", "vmw_vmci", "vmw_vmci", subsystem=("0x15ad", "0x0740"))
    r.pci("0000:00:0f.0", "0x15ad", "0x0405", "0x030000", "vmwgfx", "vmwgfx", subsystem=("0x15ad", "0x0405"))
    r.pci("0000:00:15.0", "0x15ad", "0x07a0", "0x060400", "pcieport", subsystem=("0x15ad", "0x07a0"))
    r.pci("0000:03:00.0", "0x15ad", "0x07c0", "0x010700", "vmw_pvscsi", "vmw_pvscsi", parent="0000:00:15.0",
          subsystem=("0x15ad", "0x07c0"))
    r.pci("0000:0b:00.0", "0x15ad", "0x07b0", "0x020000", "vmxnet3", "vmxnet3", subsystem=("0x15ad", "0x07b0"))
    r.pci_ids()


def azure_hyperv_guest_intel():
    r = Root("linux-azure-hyperv-guest-intel")
    r.basics("sql-az-e8", "Ubuntu 22.04.4 LTS", "22.04", 65855040)
    r.cpuinfo("GenuineIntel", 6, 106, "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz", 1, 8,
              INTEL_FLAGS.split(" amx_bf16")[0], True)
    r.dmi("Microsoft Corporation", "Virtual Machine", "Microsoft Corporation")
    # Generation 2 VMs have no emulated PCI chipset; accelerated networking adds a Mellanox VF.
    r.pci("6f1c:00:02.0", "0x15b3", "0x101a", "0x020000", "mlx5_core", "mlx5_core", subsystem=("0x15b3", "0x0190"))
    r.pci_ids()


def broken_root():
    r = Root("linux-broken-root")
    r.basics("half-copied", "Debian GNU/Linux 12 (bookworm)", "12", 8192000)
    r.mkdir("proc/cpuinfo")  # a folder where a file belongs: the copy went wrong
    r.write("proc/cpuinfo/README", "cpuinfo could not be copied\n")
    r.dmi("Micro-Star International Co., Ltd.", "MS-7D25", "American Megatrends International, LLC.")
    r.pci("0000:03:00.0", "0x14e4", "0x16d7", "0x020000", "bnxt_en", "bnxt_en", subsystem=("0x14e4", "0x1402"))
    r.link("sys/bus/pci/devices/0000:04:00.0", "sys/devices/pci0000:04/0000:04:00.0")  # dangling
    r.mkdir("etc/zlib-accel.conf")
    r.write("etc/zlib-accel.conf/broken", "\n")


# ---------------------------------------------------------------- Windows


def utf16_hex(text, multi=False):
    data = b"".join(s.encode("utf-16-le") + b"\x00\x00" for s in text) + b"\x00\x00" if multi \
        else text.encode("utf-16-le") + b"\x00\x00"
    return ",".join(f"{b:02x}" for b in data)


def wrap_hex(prefix, hexdata):
    """reg export wraps long hex values at about 80 columns with a trailing backslash."""
    out, line = [], prefix
    for i, byte in enumerate(hexdata.split(",")):
        piece = byte + ("," if i < len(hexdata.split(",")) - 1 else "")
        if len(line) + len(piece) > 77:
            out.append(line + "\\")
            line = "  "
        line += piece
    out.append(line)
    return "\r\n".join(out)


class Reg:
    def __init__(self):
        self.keys = []

    def key(self, path, *values):
        lines = [f"[HKEY_LOCAL_MACHINE\\{path}]"]
        for name, kind, value in values:
            q = '@' if name == "" else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
            if kind == "sz":
                lines.append(f'{q}="' + value.replace("\\", "\\\\").replace('"', '\\"') + '"')
            elif kind == "dword":
                lines.append(f"{q}=dword:{value:08x}")
            elif kind == "expand":
                lines.append(wrap_hex(f"{q}=hex(2):", utf16_hex(value)))
            elif kind == "multi":
                lines.append(wrap_hex(f"{q}=hex(7):", utf16_hex(value, multi=True)))
            elif kind == "raw":
                lines.append(value)
        self.keys.append("\r\n".join(lines))

    def text(self):
        return "Windows Registry Editor Version 5.00\r\n\r\n" + "\r\n\r\n".join(self.keys) + "\r\n\r\n"


def cpu_keys(reg, vendor, name, identifier, count, mhz):
    for i in range(count):
        reg.key(f"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\{i}",
                ("Component Information", "raw", '"Component Information"=hex:00,00,00,00,00,00,00,00,00,00,00,00,00,00,00,00'),
                ("Identifier", "sz", identifier),
                ("ProcessorNameString", "sz", name),
                ("VendorIdentifier", "sz", vendor),
                ("~MHz", "dword", mhz))


def bios_key(reg, manufacturer, product, bios_vendor, bios_version="2.1.4"):
    reg.key("HARDWARE\\DESCRIPTION\\System\\BIOS",
            ("BaseBoardManufacturer", "sz", manufacturer),
            ("BIOSVendor", "sz", bios_vendor),
            ("BIOSVersion", "sz", bios_version),
            ("SystemManufacturer", "sz", manufacturer),
            ("SystemProductName", "sz", product))


def os_keys(reg, product, build, computer):
    reg.key("SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion",
            ("CurrentBuild", "sz", build),
            ("CurrentMajorVersionNumber", "dword", 10),
            ("CurrentMinorVersionNumber", "dword", 0),
            ("EditionID", "sz", product.split()[-1]),
            ("ProductName", "sz", product))
    reg.key("SYSTEM\\CurrentControlSet\\Control\\ComputerName\\ComputerName", ("ComputerName", "sz", computer))


def pci_key(reg, ven, dev, subsys, rev, instance, cc, desc, inf, service=None, driver=None, cls="{4d36e97d-e325-11ce-bfc1-08002be10318}",
            config_flags=0, location="PCI bus 107, device 0, function 0", subkeys=False):
    hwid = f"VEN_{ven}&DEV_{dev}&SUBSYS_{subsys}&REV_{rev}"
    compatible = [f"PCI\\VEN_{ven}&DEV_{dev}&REV_{rev}", f"PCI\\VEN_{ven}&DEV_{dev}", f"PCI\\VEN_{ven}&CC_{cc}",
                  f"PCI\\VEN_{ven}&CC_{cc[:4]}", f"PCI\\VEN_{ven}", f"PCI\\CC_{cc}", f"PCI\\CC_{cc[:4]}"]
    values = [("DeviceDesc", "sz", f"@{inf},%{desc.split()[1].lower()}.devicedesc%;{desc}"),
              ("LocationInformation", "sz", location),
              ("Capabilities", "dword", 0x10),
              ("HardwareID", "multi", [f"PCI\\{hwid}", f"PCI\\VEN_{ven}&DEV_{dev}&SUBSYS_{subsys}"]),
              ("CompatibleIDs", "multi", compatible),
              ("ContainerID", "sz", "{00000000-0000-0000-ffff-ffffffffffff}"),
              ("ClassGUID", "sz", cls),
              ("ConfigFlags", "dword", config_flags)]
    if service:
        values.append(("Service", "sz", service))
    if driver:
        values.append(("Driver", "sz", f"{cls}\\{driver}"))
    key = f"SYSTEM\\CurrentControlSet\\Enum\\PCI\\{hwid}\\{instance}"
    reg.key(key, *values)
    if subkeys:
        # What 'reg export' of Enum\PCI also writes under each device (Properties is not readable, so absent).
        reg.key(key + "\\Device Parameters")
        reg.key(key + "\\Device Parameters\\Interrupt Management")
        reg.key(key + "\\Device Parameters\\Interrupt Management\\MessageSignaledInterruptProperties",
                ("MSISupported", "dword", 1))
        reg.key(key + "\\LogConf")


def write_reg(name, text, encoding):
    path = os.path.join(HOSTS, name)
    if os.path.lexists(path):
        shutil.rmtree(path)
    os.makedirs(path)
    data = b"\xff\xfe" + text.encode("utf-16-le") if encoding == "utf-16" else text.encode("utf-8")
    with open(os.path.join(path, "registry.reg"), "wb") as f:
        f.write(data)


SYSTEM_CLASS = "{4d36e97d-e325-11ce-bfc1-08002be10318}"
NET_CLASS = "{4d36e972-e325-11ce-bfc1-08002be10318}"
SCSI_CLASS = "{4d36e97b-e325-11ce-bfc1-08002be10318}"
QAT_4XXX = "Intel(R) 4xxx Accelerator"


def qat_driver_keys(reg, drivers, version="2.4.0.14"):
    for driver in drivers:
        reg.key(f"SYSTEM\\CurrentControlSet\\Control\\Class\\{SYSTEM_CLASS}\\{driver}",
                ("DriverDesc", "sz", QAT_4XXX),
                ("DriverVersion", "sz", version),
                ("ProviderName", "sz", "Intel"))


def qat_service_keys(reg, running=None):
    """icp_qat4 and cfqat as the Intel QAT 2.x driver installs them; Enum lists the devices the driver runs now
    (None: an export made without the volatile Enum key)."""
    reg.key("SYSTEM\\CurrentControlSet\\Services\\icp_qat4",
            ("DisplayName", "sz", "@oem23.inf,%icp_qat4.svcdesc%;Intel(R) QuickAssist Technology 4xxx Driver"),
            ("ErrorControl", "dword", 1),
            ("ImagePath", "expand", "\\SystemRoot\\System32\\drivers\\icp_qat4.sys"),
            ("Start", "dword", 3),
            ("Type", "dword", 1))
    if running is not None:
        reg.key("SYSTEM\\CurrentControlSet\\Services\\icp_qat4\\Enum",
                *([(str(i), "sz", path) for i, path in enumerate(running)]
                  + [("Count", "dword", len(running)), ("NextInstance", "dword", max(len(running), 1))]))
    reg.key("SYSTEM\\CurrentControlSet\\Services\\cfqat",
            ("ImagePath", "expand", "\\SystemRoot\\System32\\drivers\\cfqat.sys"),
            ("Start", "dword", 3),
            ("Type", "dword", 1))


def windows_4xxx():
    reg = Reg()
    cpu_keys(reg, "GenuineIntel", "Intel(R) Xeon(R) Gold 6430", "Intel64 Family 6 Model 143 Stepping 8", 8, 2100)
    bios_key(reg, "Lenovo", "ThinkSystem SR650 V3", "Lenovo")
    os_keys(reg, "Windows Server 2022 Datacenter", "20348", "SQLPROD01")
    pci_key(reg, "8086", "4940", "00008086", "40", "6&2b5e1c4f&0&00000008", "0B4000", "Intel(R) 4xxx Accelerator",
            "oem23.inf", "icp_qat4", "0041")
    pci_key(reg, "8086", "4940", "00008086", "40", "6&3a7d2e10&0&00000008", "0B4000", "Intel(R) 4xxx Accelerator",
            "oem23.inf", "icp_qat4", "0042")
    pci_key(reg, "8086", "159B", "00038086", "02", "6&11e3f3b&0&00000010", "020000",
            "Intel(R) Ethernet Controller E810-XXV for SFP", "oem7.inf", "icea", "0003",
            "{4d36e972-e325-11ce-bfc1-08002be10318}")
    pci_key(reg, "1000", "10E2", "217517AA", "01", "4&1d3e4c1b&0&0018", "010400", "Broadcom MegaRAID 9560-8i",
            "oem12.inf", "megasas35i", "0000", "{4d36e97b-e325-11ce-bfc1-08002be10318}")
    qat_driver_keys(reg, ("0041", "0042"))
    qat_service_keys(reg)
    reg.key("SYSTEM\\CurrentControlSet\\Services\\icea",
            ("ImagePath", "expand", "\\SystemRoot\\System32\\drivers\\icea.sys"),
            ("Start", "dword", 3))
    write_reg("windows-4xxx-icp-qat4", reg.text(), "utf-16")


def windows_vmware_epyc():
    reg = Reg()
    cpu_keys(reg, "AuthenticAMD", "AMD EPYC 7763 64-Core Processor", "AMD64 Family 25 Model 1 Stepping 1", 4, 2445)
    bios_key(reg, "VMware, Inc.", "VMware7,1", "VMware, Inc.")
    os_keys(reg, "Windows Server 2022 Standard", "20348", "SQLVM04")
    system = "{4d36e97d-e325-11ce-bfc1-08002be10318}"
    pci_key(reg, "8086", "7190", "197615AD", "01", "3&61aaa01&0&00", "060000",
            "Intel 82443BX Pentium(R) II Processor to PCI Bridge", "machine.inf", None, "0001", system)
    pci_key(reg, "8086", "7191", "00000000", "01", "3&61aaa01&0&08", "060400",
            "Intel 82443BX Pentium(R) II Processor to AGP Controller", "machine.inf", "pci", "0002", system)
    pci_key(reg, "8086", "7110", "197615AD", "08", "3&61aaa01&0&38", "060100",
            "Intel 82371AB/EB PCI to ISA bridge (ISA mode)", "machine.inf", "msisadrv", "0003", system)
    pci_key(reg, "8086", "7111", "197615AD", "01", "3&61aaa01&0&39", "01018A",
            "Intel(R) 82371AB/EB PCI Bus Master IDE Controller", "mshdc.inf", "intelide", "0000",
            "{4d36e96a-e325-11ce-bfc1-08002be10318}")
    pci_key(reg, "8086", "7113", "197615AD", "08", "3&61aaa01&0&3B", "068000",
            "Intel 82371AB/EB Power Management Controller", "machine.inf", None, "0004", system)
    pci_key(reg, "8086", "10D3", "07D015AD", "00", "000C29FFFF1A2B3C00", "020000",
            "Intel(R) 82574L Gigabit Network Connection", "net1ic64.inf", "e1iexpress", "0001",
            "{4d36e972-e325-11ce-bfc1-08002be10318}")
    pci_key(reg, "15AD", "07B0", "07B015AD", "01", "FF565000D3E1A2B3C4", "020000",
            "vmxnet3 Ethernet Adapter", "oem5.inf", "vmxnet3ndis6", "0002", "{4d36e972-e325-11ce-bfc1-08002be10318}")
    pci_key(reg, "15AD", "0405", "040515AD", "00", "3&61aaa01&0&78", "030000",
            "VMware SVGA 3D", "oem3.inf", "vm3dmp", "0000", "{4d36e968-e325-11ce-bfc1-08002be10318}")
    pci_key(reg, "15AD", "07C0", "07C015AD", "02", "FF565000C2B2A10000", "010700",
            "VMware PVSCSI Controller", "oem6.inf", "pvscsi", "0001", "{4d36e97b-e325-11ce-bfc1-08002be10318}")
    write_reg("windows-vmware-guest-epyc", reg.text(), "utf-8")


def windows_ec2_metal():
    """An EC2 m7i.metal-48xl: bare metal (no hypervisor) that says 'Amazon EC2' like every Nitro guest does."""
    reg = Reg()
    cpu_keys(reg, "GenuineIntel", "Intel(R) Xeon(R) Platinum 8488C", "Intel64 Family 6 Model 143 Stepping 8", 192, 2400)
    bios_key(reg, "Amazon EC2", "m7i.metal-48xl", "Amazon EC2", "1.0")
    os_keys(reg, "Windows Server 2022 Datacenter", "20348", "EC2AMAZ-7K3L9QF")
    qat = []
    for bus, instance, driver in ((0x6b, "6&1f0c3a5d&0&00000008", "0011"), (0x70, "6&2e7b4c19&0&00000008", "0012"),
                                  (0xe8, "6&35a0d2e7&0&00000008", "0013"), (0xed, "6&9c41b6f2&0&00000008", "0014")):
        pci_key(reg, "8086", "4940", "00008086", "40", instance, "0B4000", QAT_4XXX, "oem23.inf", "icp_qat4", driver,
                SYSTEM_CLASS, location=f"PCI bus {bus}, device 0, function 0")
        qat.append(f"PCI\\VEN_8086&DEV_4940&SUBSYS_00008086&REV_40\\{instance}")
    # The accelerators next to QAT that Windows has no driver for: DSA and IAA.
    pci_key(reg, "8086", "0B25", "00008086", "01", "6&1c2b7e0a&0&00000008", "088000",
            "Intel(R) Data Streaming Accelerator", "machine.inf", None, None, SYSTEM_CLASS,
            location="PCI bus 106, device 1, function 0")
    pci_key(reg, "8086", "0CFE", "00008086", "01", "6&1c2b7e0a&0&00000010", "088000",
            "Intel(R) In-Memory Analytics Accelerator", "machine.inf", None, None, SYSTEM_CLASS,
            location="PCI bus 106, device 2, function 0")
    pci_key(reg, "1D0F", "EC20", "00001D0F", "00", "3&13c0b0c5&0&28", "020000", "Amazon Elastic Network Adapter",
            "oem8.inf", "ena", "0001", NET_CLASS, location="PCI bus 0, device 5, function 0")
    pci_key(reg, "1D0F", "8061", "00001D0F", "00", "3&13c0b0c5&0&20", "010802", "AWS NVMe Elastic Block Storage Adapter",
            "oem9.inf", "AWSNVMe", "0000", SCSI_CLASS, location="PCI bus 0, device 4, function 0")
    qat_driver_keys(reg, ("0011", "0012", "0013", "0014"))
    qat_service_keys(reg, qat)
    reg.key("SYSTEM\\CurrentControlSet\\Services\\ena",
            ("ImagePath", "expand", "\\SystemRoot\\System32\\drivers\\ena.sys"),
            ("Start", "dword", 3))
    reg.key("SYSTEM\\CurrentControlSet\\Services\\AWSNVMe",
            ("ImagePath", "expand", "\\SystemRoot\\System32\\drivers\\AWSNVMe.sys"),
            ("Start", "dword", 0))
    write_reg("windows-ec2-m7i-metal-48xl-4xxx", reg.text(), "utf-16")


def windows_4xxx_disabled():
    """A 4xxx PF disabled in Device Manager: ConfigFlags has CONFIGFLAG_DISABLED, the driver runs no device."""
    reg = Reg()
    cpu_keys(reg, "GenuineIntel", "Intel(R) Xeon(R) Gold 6438Y+", "Intel64 Family 6 Model 143 Stepping 8", 16, 2000)
    bios_key(reg, "HPE", "ProLiant DL380 Gen11", "HPE", "2.20")
    os_keys(reg, "Windows Server 2022 Standard", "20348", "SQLRPT02")
    pci_key(reg, "8086", "4940", "00008086", "40", "6&18a3c7e2&0&00000008", "0B4000", QAT_4XXX, "oem23.inf",
            "icp_qat4", "0031", SYSTEM_CLASS, config_flags=0x1)
    pci_key(reg, "8086", "1521", "00A3103C", "01", "6&3b9e4c77&0&00000010", "020000",
            "Intel(R) I350 Gigabit Network Connection", "oem4.inf", "e1rexpress", "0001", NET_CLASS,
            location="PCI bus 49, device 0, function 0")
    qat_driver_keys(reg, ("0031",))
    qat_service_keys(reg, [])
    reg.key("SYSTEM\\CurrentControlSet\\Services\\e1rexpress",
            ("ImagePath", "expand", "\\SystemRoot\\System32\\drivers\\e1r68x64.sys"),
            ("Start", "dword", 3))
    write_reg("windows-4xxx-disabled", reg.text(), "utf-16")


def windows_pci_only():
    """Only 'reg export HKLM\\SYSTEM\\CurrentControlSet\\Enum\\PCI', every key as reg writes it, parents included."""
    reg = Reg()
    reg.key("SYSTEM\\CurrentControlSet\\Enum\\PCI")
    devices = (("4940", "00008086", "40", "6&2b5e1c4f&0&00000008", "0B4000", QAT_4XXX, "oem23.inf", "icp_qat4",
                "0041", SYSTEM_CLASS, "PCI bus 107, device 0, function 0"),
               ("4940", "00008086", "40", "6&3a7d2e10&0&00000008", "0B4000", QAT_4XXX, "oem23.inf", "icp_qat4",
                "0042", SYSTEM_CLASS, "PCI bus 232, device 0, function 0"),
               ("159B", "00038086", "02", "6&11e3f3b&0&00000010", "020000", "Intel(R) Ethernet Controller E810-XXV for SFP",
                "oem7.inf", "icea", "0003", NET_CLASS, "PCI bus 22, device 0, function 0"))
    seen = set()
    for dev, subsys, rev, instance, cc, desc, inf, service, driver, cls, location in devices:
        hwid = f"VEN_8086&DEV_{dev}&SUBSYS_{subsys}&REV_{rev}"
        if hwid not in seen:
            seen.add(hwid)
            reg.key(f"SYSTEM\\CurrentControlSet\\Enum\\PCI\\{hwid}")
        pci_key(reg, "8086", dev, subsys, rev, instance, cc, desc, inf, service, driver, cls, location=location,
                subkeys=True)
    write_reg("windows-pci-only-export", reg.text(), "utf-16")


def ec2_metal_linux():
    r = Root("linux-ec2-m7i-metal-48xl-4xxx")
    r.basics("ip-10-0-12-34.ec2.internal", "Amazon Linux 2023.6.20241212", "2023", 790224512)
    r.cpuinfo("GenuineIntel", 6, 143, "Intel(R) Xeon(R) Platinum 8488C", 2, 96, INTEL_FLAGS, False)
    r.dmi("Amazon EC2", "m7i.metal-48xl", "Amazon EC2")
    for bdf, services in (("0000:6b:00.0", "dc"), ("0000:70:00.0", "dc"),
                          ("0000:e8:00.0", "sym;asym"), ("0000:ed:00.0", "sym;asym")):
        r.pci(bdf, "0x8086", "0x4940", "0x0b4000", "4xxx", "qat_4xxx", qat=("up", services))
    r.pci("0000:6a:01.0", "0x8086", "0x0b25", "0x088000", "idxd", "idxd")
    r.pci("0000:00:05.0", "0x1d0f", "0xec20", "0x020000", "ena", "ena", subsystem=("0x1d0f", "0xec20"))
    r.pci("0000:00:04.0", "0x1d0f", "0x8061", "0x010802", "nvme", "nvme", subsystem=("0x1d0f", "0x8061"))
    r.module("intel_qat")
    r.firmware("qat_4xxx.bin.xz", "qat_4xxx_mmp.bin.xz")
    r.library("usr/lib64", "libqat.so.4.2.0", "libqat.so.4")
    r.library("usr/lib64", "libusdm.so.0.1.0", "libusdm.so.0")
    r.qat_service(True)
    r.dev("qat_adf_ctl", "vfio/vfio")
    r.pci_ids("usr/share/hwdata/pci.ids")


def windows_malformed():
    reg = Reg()
    cpu_keys(reg, "GenuineIntel", "Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz",
             "Intel64 Family 6 Model 85 Stepping 7", 2, 3000)
    bios_key(reg, "Dell Inc.", "PowerEdge R740", "Dell Inc.")
    pci_key(reg, "8086", "37C8", "35C58086", "04", "4&2a1b3c4d&0&0008", "0B4000",
            "Intel(R) C62x Accelerator", "oem40.inf", None, None)
    text = reg.text()
    # Damage it as a careless edit or a truncated copy would: a service value without quotes, a broken
    # hex continuation and a key cut off in the middle.
    text = text.replace('"ConfigFlags"=dword:00000000', '"ConfigFlags"=dword:00000000\r\n"Service"=icp_qat')
    text += ('[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services\\icp_qat]\r\n'
             '"ImagePath"=hex(2):5c,00,53,00,79,00,zz,00\r\n'
             '"Start"=dword:00000003\r\n'
             '[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Enum\\PCI\\VEN_8086&DEV_37C8')
    write_reg("windows-malformed-registry", text, "utf-16")


if __name__ == "__main__":
    for scenario in (spr_4xxx_dc_up, spr_4xxx_crypto_only, c62x_lewisburg, kvm_guest_4xxx_vfs, kvm_guest_epyc,
                     epyc_intel_nic, epyc_no_intel_qat_libs, vmware_guest, azure_hyperv_guest_intel, broken_root,
                     ec2_metal_linux, windows_4xxx, windows_vmware_epyc, windows_malformed, windows_ec2_metal,
                     windows_4xxx_disabled, windows_pci_only):
        scenario()
    print("fixtures written to " + HOSTS, file=sys.stderr)

# The simulated hardware rig: Debian's kernel 6.1 under QEMU (TCG) with vivid, running
# the Camera and Flash rig tests inside the VM. Included by the main Makefile.
#
#   make rig-test    build what is missing (cached in .cache/rig), boot, run, report
#   make rig-prepare only the kernel and its modules (make test, beside its build)
#   make rig-shell   boot the same VM with a shell on the console (interactive)
#   make rig-powercut  stop a VM hard RIG_CUTS times (default 30) while the outbox writes to its disk
#   make rig-clean   forget the cache (kernel, initramfs, results)
#   make system-test   the Debian packages installed and run under systemd in a Debian 12 VM
#
# Needs Debian packages: qemu-system-x86 busybox-static cpio (and apt-get download
# access for linux-image-6.1.0-*-amd64).

RIG_DIR ?= hardware/rig
RIG_CACHE ?= .cache/rig

.PHONY: rig-test rig-prepare rig-shell rig-powercut rig-clean

rig-prepare:
	RIG_CACHE=$(RIG_CACHE) bash $(RIG_DIR)/rig.sh prepare

rig-test:
	RIG_CACHE=$(RIG_CACHE) bash $(RIG_DIR)/rig.sh test

rig-shell:
	RIG_CACHE=$(RIG_CACHE) bash $(RIG_DIR)/rig.sh shell

rig-powercut:
	RIG_CACHE=$(RIG_CACHE) bash $(RIG_DIR)/rig.sh powercut

rig-clean:
	rm -rf $(RIG_CACHE)

# The system test: the Debian packages under real systemd in a Debian 12 VM (system-vm/run.sh).
.PHONY: system-test
system-test:
	RIG_CACHE=$(RIG_CACHE) bash $(RIG_DIR)/system-vm/run.sh

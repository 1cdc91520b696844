# Debian's kernel for the VMs, shared by rig.sh and system-vm/run.sh (sourced, not run).
# The caller defines say() and die() and sets $cache (absolute). Each step is done once
# and kept in $cache: the package in $cache/debs, its files in $cache/kernel.
#
#   rig_kernel          sets kpkg, kver, vmlinuz and moddir (downloads and unpacks when missing)
#   rig_modules_index   fills modfile[name] with every module file of that kernel
#   add_module NAME     appends NAME and, before it, the modules it depends on to order[]

# Debian's linux-image-6.1.0-N-amd64, as linux-image-amd64 depends on it
# (RIG_KERNEL_PACKAGE overrides).
rig_kernel() {
    kpkg=${RIG_KERNEL_PACKAGE:-}
    # The kernel whose headers are installed, so out-of-tree modules match it.
    if [ -z "$kpkg" ]; then
        local h
        h=$(ls -d /usr/src/linux-headers-6.1.0-*-amd64 2>/dev/null | sort -V | tail -1 || true)
        [ -n "$h" ] && kpkg=linux-image-${h#/usr/src/linux-headers-}
    fi
    if [ -z "$kpkg" ]; then
        kpkg=$(ls "$cache"/debs/linux-image-6.1.0-*-amd64_*.deb 2>/dev/null | head -1 | xargs -r basename | cut -d_ -f1 || true)
    fi
    if [ -z "$kpkg" ]; then
        kpkg=$(timeout 60 apt-cache depends linux-image-amd64 2>/dev/null | grep -o 'linux-image-6\.1\.0-[0-9]*-amd64' | head -1 || true)
        [ -n "$kpkg" ] || kpkg=$(timeout 60 apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | cut -d' ' -f1 | sort -V | tail -1)
    fi
    [ -n "$kpkg" ] || die "no linux-image-6.1.0-*-amd64 package found (apt-get update?)"
    kver=${kpkg#linux-image-}
    if ! ls "$cache"/debs/"$kpkg"_*.deb >/dev/null 2>&1; then
        say "downloading $kpkg"
        mkdir -p "$cache/debs"
        (cd "$cache/debs" && timeout 600 apt-get download "$kpkg") || die "apt-get download $kpkg failed"
    fi
    if [ ! -f "$cache/kernel/boot/vmlinuz-$kver" ]; then
        say "unpacking $kpkg"
        rm -rf "$cache/kernel"
        dpkg -x "$cache"/debs/"$kpkg"_*.deb "$cache/kernel"
    fi
    vmlinuz="$cache/kernel/boot/vmlinuz-$kver"
    moddir="$cache/kernel/lib/modules/$kver/kernel"
}

declare -A modfile
declare -A seen
order=()

# Every module of the kernel by name (dashes as underscores, as the kernel names them).
rig_modules_index() {
    local f n
    while IFS= read -r f; do
        n=${f##*/}; n=${n%.ko}; modfile[${n//-/_}]=$f
    done < <(find "$moddir" -name '*.ko')
}

# Modules and their dependencies, in load order (from each module's .modinfo: no depmod).
add_module() {
    local name=${1//-/_}
    [ -n "${seen[$name]:-}" ] && return 0
    seen[$name]=1
    local f=${modfile[$name]:-}
    [ -n "$f" ] || die "module $1 not in $kpkg"
    local deps d
    deps=$(tr '\0' '\n' < "$f" | sed -n 's/^depends=//p' | head -1 | tr ',' ' ')
    for d in $deps; do add_module "$d"; done
    order+=("$name")
}

#!/usr/bin/env bash
# Builds, once per machine, the real Kubernetes API server the deploy tests run, and prints the folder of its tools.
# Debian ships etcd-server and kubectl but no kube-apiserver binary, so this builds one offline from Debian's
# `kubernetes` source package (vendored Go modules, golang-go). Everything lands in $PYLON_CACHE/k8s
# (default ~/.cache/pylon/k8s), outside the work tree; a second call only checks the cached binary and returns.
# Missing tools are installed with apt-get when running as root; otherwise the script fails naming them.
set -euo pipefail

cache="${PYLON_CACHE:-$HOME/.cache/pylon}/k8s"
bin="$cache/bin"
stamp="$bin/kube-apiserver.ok"
log="$cache/build.log"
mkdir -p "$bin"
# one build at a time: a second caller (CI's preparation, a test) waits for the first instead of clobbering its tree
exec 9>"$cache/.lock"
flock 9

fail() { echo "pylon k8s: $*" >&2; exit 1; }

apt_install() {
  # installs the Debian packages $@ that are not installed yet, or fails naming them
  local missing=() p
  for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    fail "missing Debian packages: ${missing[*]} (install them: apt-get install ${missing[*]})"
  fi
  echo "pylon k8s: installing ${missing[*]}" >&2
  apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
    || fail "could not install Debian packages: ${missing[*]}"
}

link_tool() {
  # puts the tool $1 (found at $2) into $bin under its plain name
  [ -x "$2" ] || fail "$1 not found at $2"
  ln -sf "$2" "$bin/$1"
}

# etcd from Debian; kubectl from PATH, 1.24 or newer (kustomize `labels:`, `kubectl create token`), which Debian's
# kubernetes-client (1.20) is not: the Google Cloud SDK's kubectl package, or any release binary, will do.
apt_install etcd-server jq
link_tool etcd /usr/bin/etcd
command -v kubectl >/dev/null 2>&1 || fail "kubectl is missing: install kubectl 1.24 or newer (e.g. the 'kubectl' package of the Google Cloud SDK)"
kubectl_minor=$(kubectl version --client -o json 2>/dev/null | jq -r '.clientVersion.minor' | tr -dc '0-9')
[ -n "$kubectl_minor" ] && [ "$kubectl_minor" -ge 24 ] || fail "kubectl 1.${kubectl_minor:-?} is too old: the tests need 1.24 or newer"
link_tool kubectl "$(command -v kubectl)"

if [ -x "$bin/kube-apiserver" ] && [ -f "$stamp" ]; then
  echo "$bin"
  exit 0
fi

start=$(date +%s)
apt_install golang-go jq rsync dpkg-dev make golang-github-modern-go-reflect2-dev
src_list=/etc/apt/sources.list.d/pylon-bookworm-src.sources
if ! apt-cache showsrc kubernetes 2>/dev/null | grep -q '^Package: kubernetes'; then
  [ "$(id -u)" = 0 ] || fail "no deb-src entry for Debian's kubernetes source package (add one for bookworm)"
  # deb822 with the same Signed-By as Debian's own entry: apt refuses two entries for one URI that disagree on it
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' > "$src_list"
  if ! apt-get update -qq >/dev/null; then
    rm -f "$src_list"
    fail "apt-get update failed after adding $src_list (removed it again)"
  fi
fi

work="$cache/src"
rm -rf "$work" && mkdir -p "$work"
echo "pylon k8s: building kube-apiserver from Debian's kubernetes sources (minutes, once per machine; log $log)" >&2
( cd "$work" && apt-get source -qq kubernetes ) >"$log" 2>&1 || fail "apt-get source kubernetes failed (see $log)"
tree=$(find "$work" -maxdepth 1 -mindepth 1 -type d -name 'kubernetes-*' | head -n 1)
[ -n "$tree" ] || fail "no kubernetes-* folder after apt-get source (see $log)"
# The vendored modern-go/reflect2 crashes at start under Debian's newer Go; Debian's packaged copy is fixed.
reflect2=/usr/share/gocode/src/github.com/modern-go/reflect2
[ -d "$reflect2" ] || fail "$reflect2 missing (package golang-github-modern-go-reflect2-dev)"
rm -rf "$tree/vendor/github.com/modern-go/reflect2"
cp -r "$reflect2" "$tree/vendor/github.com/modern-go/reflect2"
( cd "$tree" && GOFLAGS=-mod=vendor GOPROXY=off KUBE_GIT_VERSION="v$(dpkg-parsechangelog -l debian/changelog -S Version | sed 's/.*+really//; s/[-+~].*//')" \
    make WHAT=cmd/kube-apiserver ) >>"$log" 2>&1 || fail "make WHAT=cmd/kube-apiserver failed (see $log)"
built=$(find "$tree/_output" -type f -name kube-apiserver -perm -u+x | head -n 1)
[ -n "$built" ] || fail "make finished but no kube-apiserver binary was found (see $log)"
cp "$built" "$bin/kube-apiserver"
"$bin/kube-apiserver" --version >>"$log" 2>&1 || fail "the built kube-apiserver does not run (see $log)"
rm -rf "$work"
echo "built in $(( $(date +%s) - start ))s on $(nproc) cores; $("$bin/kube-apiserver" --version)" > "$stamp"
echo "pylon k8s: $(cat "$stamp")" >&2
echo "$bin"

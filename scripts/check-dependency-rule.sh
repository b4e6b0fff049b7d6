#!/usr/bin/env bash
# Fails when a library module imports something the dependency rule forbids.
#   ConfigDomain  -> Foundation (and the Swift standard library) only
#   ConfigPorts   -> ConfigDomain
#   adapters      -> ConfigPorts, ConfigDomain (never another adapter, never RemoteConfig)
#   RemoteConfig  -> ConfigPorts, ConfigDomain, Atomics (apple/swift-atomics, for the lock-free read path)
#   TestSupport   -> FlyingFox, FlyingSocks, ConfigDomain, ConfigPorts (test-only: Tests/TestSupport, not a product,
#                    and no library target may depend on it)
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
    # The shared test-support target (Tests/TestSupport) may use FlyingFox, as tests may.
    TestSupport) echo "$platform FlyingFox FlyingSocks ConfigDomain ConfigPorts" ;;
    *) echo "__unknown__" ;;
  esac
}
status=0
checked=0
for dir in "$root"/Modules/*/ "$root"/Tests/TestSupport/; do
  [ -d "$dir" ] || continue
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
# Library targets may depend only on other library modules of this package, never on a package product,
# except RemoteConfig on Apple's swift-atomics (Atomics) for its lock-free read path (issue 9).
# TestSupport is for test targets only: no product may contain it and no library target may depend on it.
if command -v swift >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  if ! (cd "$root" && swift package dump-package 2>/dev/null) | python3 -c '
import json, sys
core = {"ConfigDomain", "ConfigPorts"}
allowed = {"ConfigDomain": set(), "ConfigPorts": {"ConfigDomain"}, "HTTPAdapter": core, "FileCacheAdapter": core,
           "EnvAdapter": core, "TestDoubles": core, "RemoteConfig": core}
products = {"RemoteConfig": {"Atomics"}}
libraries = set(allowed)
package = json.load(sys.stdin)
bad = []
for target in package["targets"]:
    if target["name"] not in libraries:
        continue
    for dependency in target.get("dependencies", []):
        if "product" in dependency and dependency["product"][0] not in products.get(target["name"], set()):
            bad.append("%s depends on the package product %s" % (target["name"], dependency["product"][0]))
        name = (dependency.get("byName") or dependency.get("target") or [None])[0]
        if name is not None and name not in allowed[target["name"]]:
            bad.append("%s depends on %s" % (target["name"], name))
for product in package.get("products", []):
    if "TestSupport" in product.get("targets", []):
        bad.append("the product %s contains TestSupport, which is for test targets only" % product["name"])
for target in package["targets"]:
    if target["name"] != "TestSupport":
        continue
    if target["type"] != "regular":
        bad.append("TestSupport must be a plain (non-test) target that test targets depend on")
    for dependency in target.get("dependencies", []):
        if "product" in dependency and dependency["product"][0] not in {"FlyingFox", "FlyingSocks"}:
            bad.append("TestSupport depends on the package product %s (allowed: FlyingFox)" % dependency["product"][0])
        name = (dependency.get("byName") or dependency.get("target") or [None])[0]
        if name is not None and name not in core:
            bad.append("TestSupport depends on %s (allowed: ConfigDomain, ConfigPorts, FlyingFox)" % name)
for line in bad:
    print("dependency rule: Package.swift: " + line, file=sys.stderr)
sys.exit(1 if bad else 0)
'; then
    status=1
  fi
fi
if [ $status -eq 0 ]; then echo "dependency rule holds ($checked import lines checked; no third-party dependency in library targets)"; fi
exit $status

# Two commands work on a fresh machine: `make demo` and `make test`.
SWIFT ?= swift
# The Development trait (Package.swift): this package's tools, examples and tests, and the packages they use.
export RC_DEVELOPMENT := 1
WERROR := -Xswiftc -warnings-as-errors
# Tests run in parallel. Almost all are Swift Testing; the example adapter also shows its contract run from XCTest.
TEST_FLAGS :=

.PHONY: all build test test-unit test-integration test-tsan test-differential-long test-soak demo bench bench-probe bench-app bench-check bench-baseline size probe docs format lint clean

all: build

build:
	$(SWIFT) build $(WERROR)

## The client's tests under the thread sanitizer, then every unit and integration test (the dependency rule is one of them)
## with warnings as errors (last, so the run ends with the whole suite's summary).
## The suites that load both cores for seconds (the Hummingbird server under concurrent load, the vendors' engines
## as child processes, the push soak's minute of faults, status reads racing on both cores) run after the rest, on
## their own, so that they never starve the loopback tests' time limits.
HEAVY := HummingbirdFlagsLoadTests|VendorDifferentialTests|PushSoakTests|ProviderStateRaceTests
test: test-tsan
	$(SWIFT) build --build-tests $(WERROR)
	$(SWIFT) test --skip-build $(TEST_FLAGS) --skip '$(HEAVY)'
	$(SWIFT) test --skip-build $(TEST_FLAGS) --filter '$(HEAVY)'

test-unit:
	$(SWIFT) test $(WERROR) $(TEST_FLAGS) --skip IntegrationTests

test-integration:
	$(SWIFT) test $(WERROR) $(TEST_FLAGS) --filter IntegrationTests

## The vendor formats against the vendors' own engines, and OFREP against fast-feature's server, with a seed
## `make test` does not use and 20,000 cases per vendor (DIFF_SEED and DIFF_CASES change them). Needs the oracles:
## python3 -m pip install -r Integration/VendorDifferential/Oracles/requirements.txt -r Integration/OFREPServer/requirements.txt
DIFF_SEED ?= 20261127
DIFF_CASES ?= 20000
test-differential-long:
	$(SWIFT) build --build-tests $(WERROR)
	RC_REQUIRE_ORACLES=1 RC_DIFF_SEED=$(DIFF_SEED) RC_DIFF_CASES=$(DIFF_CASES) $(SWIFT) test --skip-build --filter VendorDifferentialTests

## The push soak at length: 2,000 random network faults over about ten minutes on the SSE, OFREP and etcd
## paths at once, while versions are published (RC_SOAK_FAULTS changes the count; the seed is printed, and
## RC_SOAK_SEED=<seed> replays a run). `make test` runs the same soak with 200 faults, about a minute.
test-soak:
	$(SWIFT) build --build-tests $(WERROR)
	RC_SOAK_ALONE=1 RC_SOAK_FAULTS=$${RC_SOAK_FAULTS:-2000} $(SWIFT) test --skip-build --filter PushSoakTests

## RemoteConfig tests under the thread sanitizer, in their own build folder; RC_CORE_ONLY=1 declares only the
## core modules and their tests, so this builds five modules rather than the whole package a second time.
test-tsan:
	RC_CORE_ONLY=1 $(SWIFT) test --scratch-path .build-tsan --sanitize=thread $(WERROR) $(TEST_FLAGS) --filter RemoteConfigTests

## The whole story, end to end, on an embedded server.
demo:
	$(SWIFT) build $(WERROR) --product remote-config
	$(SWIFT) run --skip-build remote-config demo

## package-benchmark suite (RC_BENCHMARKS=1 adds the benchmark dependencies; its own scratch path keeps
## it out of `make test`). The cold-start benchmarks spawn the release ReadProbe, built first.
BENCH := RC_BENCHMARKS=1 $(SWIFT) package --scratch-path .build-bench --allow-writing-to-package-directory benchmark
BENCH_TARGET := --target RemoteConfigBenchmarks
BENCH_THRESHOLDS := $(CURDIR)/Integration/Benchmarks/Thresholds

bench-probe:
	RC_BENCHMARKS=1 $(SWIFT) build -c release --scratch-path .build-bench --product ReadProbe

## Runs every benchmark and prints the table.
bench: bench-probe
	$(BENCH) $(BENCH_TARGET) --no-progress

## Reads as an app pays them: an app package made in .build-app/ from Integration/Benchmarks/App, which
## depends on this checkout by path and reads `static let` keys declared in a module of its own.
bench-app:
	rm -rf .build-app && mkdir -p .build-app && cp -R Integration/Benchmarks/App/. .build-app/
	sed 's|@ROOT@|$(CURDIR)|' Integration/Benchmarks/App/Package.swift.template > .build-app/Package.swift
	rm .build-app/Package.swift.template
	cd .build-app && env -u RC_DEVELOPMENT $(SWIFT) package --allow-writing-to-package-directory benchmark --no-progress

## The library's code in an app, as a user builds it: a package made in .build-size/ from
## Integration/Benchmarks/SizeApps (lean, quick start, every module), built in release and stripped; each
## size is printed minus that of an empty Swift program.
size:
	rm -rf .build-size && mkdir -p .build-size && cp -R Integration/Benchmarks/SizeApps/. .build-size/
	sed 's|@ROOT@|$(CURDIR)|' Integration/Benchmarks/SizeApps/Package.swift.template > .build-size/Package.swift
	rm .build-size/Package.swift.template
	cd .build-size && env -u RC_DEVELOPMENT $(SWIFT) build -c release
	@cd .build-size && bin=$$(env -u RC_DEVELOPMENT $(SWIFT) build -c release --show-bin-path) && \
	for app in Empty Lean QuickStart Everything; do strip -o $$app.stripped $$bin/$$app; done && \
	empty=$$(stat -c %s Empty.stripped) && \
	for app in Lean QuickStart Everything; do \
		echo "$$app: $$(( $$(stat -c %s $$app.stripped) - empty )) bytes of library code (stripped $$(stat -c %s $$app.stripped), empty program $$empty)"; \
	done

## The instruction-count probe, built in release as another package (.build-probe/ from Integration/Benchmarks/Probe,
## with the targeting workload copied in); then `Integration/Benchmarks/Probe/count.sh MODE` counts one operation.
probe:
	rm -rf .build-probe/Sources && mkdir -p .build-probe/Sources/Workloads && cp -R Integration/Benchmarks/Probe/Sources/. .build-probe/Sources/
	cp Integration/Benchmarks/Workloads/TargetingWorkload.swift .build-probe/Sources/Workloads/
	sed 's|@ROOT@|$(CURDIR)|' Integration/Benchmarks/Probe/Package.swift.template > .build-probe/Package.swift
	cd .build-probe && env -u RC_DEVELOPMENT $(SWIFT) build -c release

## Runs every benchmark and writes its p90s as the checked-in thresholds.
bench-baseline: bench-probe
	$(BENCH) thresholds update $(BENCH_TARGET) --path $(BENCH_THRESHOLDS) --no-progress

## Runs every benchmark and fails when one is more than 30% slower or allocates more than 10% more
## (any malloc where the threshold is 0) than the thresholds. A run only better than the thresholds
## (package-benchmark reports that as a failure too) passes, with a hint to re-baseline.
bench-check: bench-probe
	@log=$$(mktemp); rc=$$(mktemp); \
	{ $(BENCH) thresholds check $(BENCH_TARGET) --path $(BENCH_THRESHOLDS) --no-progress; echo $$? > $$rc; } 2>&1 | tee $$log; \
	status=$$(cat $$rc); \
	if [ "$$status" -ne 0 ] && grep -q "is BETTER than the defined thresholds" $$log && ! grep -q "is WORSE than the defined thresholds" $$log; then \
		echo "bench-check: better than the thresholds; run 'make bench-baseline' to keep the gain"; status=0; \
	fi; \
	rm -f $$log $$rc; exit $$status

## Documentation for every library module (one archive each, in .build-docs/plugins/Swift-DocC/outputs/).
DOC_TARGETS := ConfigDomain ConfigPorts RemoteConfig RemoteConfigApp Targeting HTTPAdapter FileCacheAdapter EnvAdapter \
	DefaultsAdapter FirebaseFormat TargetingFormat GrowthBookFormat UnleashFormat FlagdFormat SSEAdapter EtcdAdapter SigningAdapter \
	ConfigurationAdapter LoggingAdapter MetricsAdapter ServiceContextAdapter ServiceLifecycleAdapter TestDoubles \
	OFREPAdapter HTTPSupport LaunchDarklyFormat ConfigCatFormat
docs:
	RC_DOCS=1 $(SWIFT) package --scratch-path .build-docs generate-documentation $(addprefix --target ,$(DOC_TARGETS))

format:
	$(SWIFT) format format --in-place --recursive Modules Tests Integration

lint:
	$(SWIFT) format lint --recursive Modules Tests Integration

clean:
	rm -rf .build .build-tsan .build-bench .build-docs .build-app .build-size .build-probe

# Two commands work on a fresh machine: `make demo` and `make test`.
SWIFT ?= swift
WERROR := -Xswiftc -warnings-as-errors
# Tests run in parallel (Swift Testing); the XCTest block is skipped because there are no XCTest tests.
TEST_FLAGS := --disable-xctest

.PHONY: all build test test-unit test-integration test-tsan demo bench bench-check bench-baseline docs format lint check-deps clean

all: build

build:
	$(SWIFT) build $(WERROR)

## The dependency rule, the client's tests under the thread sanitizer, then every unit and integration
## test with warnings as errors (last, so the run ends with the whole suite's summary).
test: check-deps test-tsan
	$(SWIFT) build --build-tests $(WERROR)
	$(SWIFT) test --skip-build $(TEST_FLAGS)

test-unit: check-deps
	$(SWIFT) test $(WERROR) $(TEST_FLAGS) --skip IntegrationTests

test-integration:
	$(SWIFT) test $(WERROR) $(TEST_FLAGS) --filter IntegrationTests

## RemoteConfig tests under the thread sanitizer, in their own build folder.
test-tsan:
	$(SWIFT) test --scratch-path .build-tsan --sanitize=thread $(WERROR) $(TEST_FLAGS) --filter RemoteConfigTests

check-deps:
	bash scripts/check-dependency-rule.sh .

## The whole story, end to end, on an embedded server.
demo:
	$(SWIFT) build $(WERROR) --product remote-config
	$(SWIFT) run --skip-build remote-config demo

## package-benchmark suite (adds the benchmark dependency only for these targets).
bench:
	RC_BENCHMARKS=1 $(SWIFT) package --scratch-path .build-bench --allow-writing-to-package-directory benchmark --target RemoteConfigBenchmarks

bench-baseline:
	RC_BENCHMARKS=1 $(SWIFT) package --scratch-path .build-bench --allow-writing-to-package-directory benchmark --target RemoteConfigBenchmarks baseline update

bench-check:
	RC_BENCHMARKS=1 $(SWIFT) package --scratch-path .build-bench --allow-writing-to-package-directory benchmark --target RemoteConfigBenchmarks baseline check --check-absolute-path Integration/Benchmarks/Thresholds

docs:
	RC_DOCS=1 $(SWIFT) package --scratch-path .build-docs generate-documentation --target RemoteConfig

format:
	$(SWIFT) format format --in-place --recursive Modules Tests Integration

lint:
	$(SWIFT) format lint --recursive Modules Tests Integration

clean:
	rm -rf .build .build-tsan .build-bench .build-docs

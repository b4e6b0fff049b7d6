// swift-tools-version: 6.1
// The whole library lives in this one package: one target per layer under `Modules/`,
// unit tests under `Tests/`, integration tests, tools and benchmarks under `Integration/`.
//
// Dependency rule (stated once, in Tests/ConfigPortsTests/DependencyRuleTests.swift):
//   ConfigDomain      -> Foundation only
//   ConfigPorts       -> ConfigDomain
//   shared libraries  -> ConfigDomain, ConfigPorts (Targeting; never an adapter)
//   adapters          -> ConfigPorts, ConfigDomain, shared libraries (never another adapter, never RemoteConfig)
//   RemoteConfig      -> ConfigPorts, ConfigDomain (never a shared library)
//   RemoteConfigApp   -> RemoteConfig, ConfigPorts, ConfigDomain (app support: never an adapter nor a shared library)
// Library products depend on no third-party package, except an adapter whose whole point is an ecosystem
// package (SigningAdapter -> swift-crypto), as its own product. Tools and test targets may.
//
// Package traits keep a consumer's resolution to what it uses: each third-party package is used only under a
// trait that is off by default. An app that uses SigningAdapter, ConfigurationAdapter, LoggingAdapter or
// MetricsAdapter enables the trait of the same name (`.package(url: …, from: …, traits: ["SigningAdapter"])`);
// an app of the core and the HTTP, file-cache and environment adapters resolves no package at all.
// The Development trait (on by default for a SwiftPM started in this package's folder, see `developing`; the
// Makefile sets RC_DEVELOPMENT=1; elsewhere `swift test --traits Development`) enables every trait and the packages
// the tools, examples and tests use.
import Foundation
import PackageDescription

/// `RC_BENCHMARKS=1` adds the package-benchmark target (its reference peer, swift-configuration, is declared
/// with the ecosystem adapters). It is off by default, so `make test` neither resolves nor builds package-benchmark.
let includeBenchmarks = ProcessInfo.processInfo.environment["RC_BENCHMARKS"] == "1"
/// `RC_DOCS=1` adds swift-docc-plugin for `make docs`.
let includeDocs = ProcessInfo.processInfo.environment["RC_DOCS"] == "1"

/// Whether the Development trait is on by default: this package's own tools, examples and tests.
///
/// `RC_DEVELOPMENT=1` (the Makefile sets it) turns it on and `RC_DEVELOPMENT=0` off. Unset, it is on when SwiftPM
/// was started in this package's own folder (the shell's `PWD` is the package directory), so that
/// `swift build --product remote-config` and `swift run remote-config demo` there work with no trait to know about.
/// A consumer's build starts in the consumer's folder, so it resolves none of these packages. (SwiftPM resolves a
/// dependency that a target declares without a trait condition for every consumer, even one that never links that
/// target, so the tool's packages cannot simply be declared unconditionally.)
let developing: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if let flag = environment["RC_DEVELOPMENT"] { return flag == "1" }
    guard let shellFolder = environment["PWD"] else { return false }
    let folder = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
    return folder(shellFolder) == folder(Context.packageDirectory)
}()

/// The adapters that exist for an ecosystem package: each is a trait of the same name, off by default.
let ecosystemAdapters = [
    "SigningAdapter", "ConfigurationAdapter", "LoggingAdapter", "MetricsAdapter", "ServiceContextAdapter",
    "ServiceLifecycleAdapter",
]

/// A package product that only this package's tools, examples and tests use (resolved with the Development trait).
func development(_ name: String, _ package: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: ["Development"]))
}

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

var package = Package(
    name: "RemoteConfig",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "ConfigDomain", targets: ["ConfigDomain"]),
        .library(name: "ConfigPorts", targets: ["ConfigPorts"]),
        .library(name: "Targeting", targets: ["Targeting"]),
        .library(name: "HTTPSupport", targets: ["HTTPSupport"]),
        .library(name: "HTTPAdapter", targets: ["HTTPAdapter"]),
        .library(name: "FileCacheAdapter", targets: ["FileCacheAdapter"]),
        .library(name: "EnvAdapter", targets: ["EnvAdapter"]),
        .library(name: "FirebaseFormat", targets: ["FirebaseFormat"]),
        .library(name: "DefaultsAdapter", targets: ["DefaultsAdapter"]),
        .library(name: "SigningAdapter", targets: ["SigningAdapter"]),
        .library(name: "EtcdAdapter", targets: ["EtcdAdapter"]),
        .library(name: "TestDoubles", targets: ["TestDoubles"]),
        .library(name: "SSEAdapter", targets: ["SSEAdapter"]),
        .library(name: "UnleashFormat", targets: ["UnleashFormat"]),
        .library(name: "TargetingFormat", targets: ["TargetingFormat"]),
        .library(name: "GrowthBookFormat", targets: ["GrowthBookFormat"]),
        .library(name: "FlagdFormat", targets: ["FlagdFormat"]),
        .library(name: "LaunchDarklyFormat", targets: ["LaunchDarklyFormat"]),
        .library(name: "ConfigCatFormat", targets: ["ConfigCatFormat"]),
        .library(name: "OFREPAdapter", targets: ["OFREPAdapter"]),
        .library(name: "RemoteConfig", targets: ["RemoteConfig"]),
        .library(name: "RemoteConfigApp", targets: ["RemoteConfigApp"]),
        .executable(name: "remote-config", targets: ["RemoteConfigCLI"]),
    ],
    traits: Set(
        ecosystemAdapters.map { Trait(name: $0, description: "The \($0) product and the ecosystem package it exists for.") }
            + [
                Trait(
                    name: "Development",
                    description: "This package's own tools, examples and tests, and the packages they use.",
                    enabledTraits: Set(ecosystemAdapters)),
                .default(enabledTraits: developing ? ["Development"] : []),
            ]),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        // Ed25519 for SigningAdapter only (Crypto on Linux, CryptoKit underneath on Apple platforms).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // MARK: Library modules (no third-party dependencies)
        .target(name: "ConfigDomain", path: "Modules/ConfigDomain", swiftSettings: swiftSettings),
        .target(name: "ConfigPorts", dependencies: ["ConfigDomain"], path: "Modules/ConfigPorts", swiftSettings: swiftSettings),
        // A shared library: the condition language, bucketing, hashes and versions the rule dialects share.
        .target(name: "Targeting", dependencies: ["ConfigDomain"], path: "Modules/Targeting", swiftSettings: swiftSettings),
        // A shared library: what the adapters that speak HTTP share (which URLs they may use and how messages show them,
        // secret redaction, Retry-After, the errors of statuses that mean "not now", a streaming session), for your own
        // HTTP adapters too.
        .target(
            name: "HTTPSupport", dependencies: ["ConfigDomain", "ConfigPorts"], path: "Modules/HTTPSupport",
            swiftSettings: swiftSettings),
        .target(
            name: "HTTPAdapter", dependencies: ["ConfigDomain", "ConfigPorts", "HTTPSupport"], path: "Modules/HTTPAdapter",
            swiftSettings: swiftSettings),
        .target(
            name: "FileCacheAdapter", dependencies: ["ConfigDomain", "ConfigPorts"], path: "Modules/FileCacheAdapter",
            exclude: ["FORMAT.md"], resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: swiftSettings),
        .target(name: "EnvAdapter", dependencies: ["ConfigDomain", "ConfigPorts"], path: "Modules/EnvAdapter", swiftSettings: swiftSettings),
        .target(
            name: "FirebaseFormat", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting"], path: "Modules/FirebaseFormat",
            exclude: ["FORMAT.md"], swiftSettings: swiftSettings),
        .target(
            name: "EtcdAdapter", dependencies: ["ConfigDomain", "ConfigPorts", "HTTPSupport"], path: "Modules/EtcdAdapter",
            swiftSettings: swiftSettings),
        .target(
            name: "DefaultsAdapter", dependencies: ["ConfigDomain", "ConfigPorts"], path: "Modules/DefaultsAdapter",
            resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: swiftSettings),
        .target(
            name: "UnleashFormat", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting"], path: "Modules/UnleashFormat",
            exclude: ["FORMAT.md"], swiftSettings: swiftSettings),
        .target(
            name: "TestDoubles", dependencies: ["ConfigDomain", "ConfigPorts"], path: "Modules/TestDoubles",
            swiftSettings: swiftSettings),
        .target(
            name: "SSEAdapter", dependencies: ["ConfigDomain", "ConfigPorts", "HTTPSupport"], path: "Modules/SSEAdapter",
            swiftSettings: swiftSettings),
        // The one library module with a third-party edge (recorded in DependencyRuleTests): Ed25519 signatures.
        .target(
            name: "SigningAdapter",
            dependencies: [
                "ConfigDomain", "ConfigPorts",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["SigningAdapter"])),
            ],
            path: "Modules/SigningAdapter", swiftSettings: swiftSettings),
        .target(
            name: "TargetingFormat", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting"], path: "Modules/TargetingFormat",
            exclude: ["FORMAT.md"], swiftSettings: swiftSettings),
        .target(
            name: "GrowthBookFormat", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting"],
            path: "Modules/GrowthBookFormat",
            exclude: ["FORMAT.md"], swiftSettings: swiftSettings),
        // Remote evaluation: OpenFeature's OFREP, flags evaluated by a server for the client's context.
        .target(
            name: "OFREPAdapter", dependencies: ["ConfigDomain", "ConfigPorts", "HTTPSupport"], path: "Modules/OFREPAdapter",
            exclude: ["README.md"],
            swiftSettings: swiftSettings),
        .target(
            name: "FlagdFormat", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting"], path: "Modules/FlagdFormat",
            exclude: ["FORMAT.md"], swiftSettings: swiftSettings),
        // LaunchDarkly's server-side flag data and ConfigCat's config JSON, evaluated on the device and on servers.
        .target(
            name: "LaunchDarklyFormat", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting"],
            path: "Modules/LaunchDarklyFormat", exclude: ["FORMAT.md"], swiftSettings: swiftSettings),
        .target(
            name: "ConfigCatFormat", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting"], path: "Modules/ConfigCatFormat",
            exclude: ["FORMAT.md"], swiftSettings: swiftSettings),
        .target(
            name: "RemoteConfig",
            dependencies: ["ConfigDomain", "ConfigPorts"], path: "Modules/RemoteConfig", swiftSettings: swiftSettings),
        // App support over the client: `@RemoteValue`, `ObservableConfig`, the SwiftUI environment and `register { }`.
        .target(
            name: "RemoteConfigApp", dependencies: ["ConfigDomain", "ConfigPorts", "RemoteConfig"],
            path: "Modules/RemoteConfigApp", swiftSettings: swiftSettings),

        // MARK: Tools
        .executableTarget(
            name: "RemoteConfigCLI",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "RemoteConfig", "HTTPAdapter", "FileCacheAdapter", "EnvAdapter",
                "FirebaseFormat", "SigningAdapter", "EtcdAdapter", "Targeting", "TargetingFormat", "GrowthBookFormat",
                "UnleashFormat", "FlagdFormat", "LaunchDarklyFormat", "ConfigCatFormat", "OFREPAdapter",
                development("ArgumentParser", "swift-argument-parser"),
                development("FlyingFox", "FlyingFox"),
            ],
            path: "Integration/CLI", exclude: ["README.md"], resources: [.copy("Examples")], swiftSettings: swiftSettings),
        .executableTarget(
            name: "DoublesDemo", dependencies: ["ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles"],
            path: "Integration/Fixtures/DoublesDemo", swiftSettings: swiftSettings),
        .executableTarget(
            name: "CacheWriterFixture", dependencies: ["ConfigDomain", "ConfigPorts", "FileCacheAdapter"],
            path: "Integration/Fixtures/CacheWriter", swiftSettings: swiftSettings),
        .executableTarget(
            name: "OverridePrinterFixture",
            dependencies: ["ConfigDomain", "ConfigPorts", "RemoteConfig", "EnvAdapter", "TestDoubles"],
            path: "Integration/Fixtures/OverridePrinter", swiftSettings: swiftSettings),
        .executableTarget(
            name: "ParserThroughput", dependencies: ["ConfigDomain"],
            path: "Integration/Fixtures/ParserThroughput", swiftSettings: swiftSettings),
        .executableTarget(
            name: "ReadProbe",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "RemoteConfig", "FileCacheAdapter", "HTTPAdapter", "TargetingFormat",
                "TestDoubles", "BenchmarkWorkloads",
            ],
            path: "Integration/Fixtures/ReadProbe", swiftSettings: swiftSettings),
        // A SwiftUI-shaped app (an EXAMPLE, not a product); headless where SwiftUI does not exist. See its README.md.
        .executableTarget(
            name: "SwiftUIExample",
            dependencies: ["RemoteConfig", "RemoteConfigApp", "DefaultsAdapter", "HTTPAdapter", "FileCacheAdapter"],
            path: "Integration/Examples/SwiftUIApp", exclude: ["README.md"],
            resources: [.copy("Resources/defaults.plist"), .copy("Resources/Settings.bundle")],
            swiftSettings: swiftSettings),
        // The keys and payloads that ReadProbe and the benchmarks share (not a product).
        .target(name: "BenchmarkWorkloads", dependencies: ["ConfigDomain", "ConfigPorts"], path: "Integration/Benchmarks/Workloads", swiftSettings: swiftSettings),

        // MARK: Test support (NOT a product, and no library target depends on it): the HTTP test server and
        // the waiting helpers the test targets share. It may use FlyingFox, as tests may.
        .target(
            name: "TestSupport", dependencies: ["ConfigDomain", "ConfigPorts", development("FlyingFox", "FlyingFox")], path: "Tests/TestSupport",
            swiftSettings: swiftSettings),

        // MARK: Unit tests
        .testTarget(name: "ConfigDomainTests", dependencies: ["ConfigDomain"], swiftSettings: swiftSettings),
        .testTarget(name: "TargetingLibraryTests", dependencies: ["ConfigDomain", "Targeting"], swiftSettings: swiftSettings),
        // The shared HTTP layer against the real loopback server of TestSupport (on FlyingFox, as tests may use).
        .testTarget(
            name: "HTTPSupportTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "HTTPSupport", "TestSupport", development("FlyingFox", "FlyingFox")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FirebaseFormatTests", dependencies: ["ConfigDomain", "ConfigPorts", "FirebaseFormat", "RemoteConfig", "TestDoubles"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "UnleashFormatTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "UnleashFormat", "RemoteConfig", "TestDoubles"],
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(name: "ConfigPortsTests", dependencies: ["ConfigDomain", "ConfigPorts", "TestDoubles"], swiftSettings: swiftSettings),
        .testTarget(name: "TestDoublesTests", dependencies: ["ConfigDomain", "ConfigPorts", "TestDoubles"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FileCacheAdapterTests", dependencies: ["ConfigDomain", "ConfigPorts", "FileCacheAdapter", "TestDoubles"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPAdapterTests",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "HTTPAdapter", "HTTPSupport", "TestDoubles", "TestSupport",
                development("FlyingFox", "FlyingFox"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EtcdAdapterTests",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "EtcdAdapter", "TestDoubles", "TestSupport",
                development("FlyingFox", "FlyingFox"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EnvAdapterTests", dependencies: ["ConfigDomain", "ConfigPorts", "EnvAdapter", "TestDoubles"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RemoteConfigTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "RemoteConfig", "RemoteConfigApp", "TestDoubles"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "DefaultsAdapterTests",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "DefaultsAdapter", "RemoteConfig", "RemoteConfigApp", "TestDoubles",
                "HTTPAdapter", "FileCacheAdapter",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SSEAdapterTests",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "SSEAdapter", "TestDoubles", "TestSupport",
                development("FlyingFox", "FlyingFox"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "OFREPAdapterTests",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "OFREPAdapter", "RemoteConfig", "TestDoubles", "TestSupport",
                development("FlyingFox", "FlyingFox"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SigningAdapterTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "SigningAdapter", "RemoteConfig", "TestDoubles"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TargetingTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles", "Targeting", "TargetingFormat"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "GrowthBookFormatTests", dependencies: ["ConfigDomain", "ConfigPorts", "Targeting", "GrowthBookFormat"],
            resources: [.copy("Conformance")], swiftSettings: swiftSettings),
        .testTarget(
            name: "LaunchDarklyFormatTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "Targeting", "LaunchDarklyFormat", "RemoteConfig", "TestDoubles"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ConfigCatFormatTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "Targeting", "ConfigCatFormat", "RemoteConfig", "TestDoubles"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FlagdFormatTests",
            dependencies: ["ConfigDomain", "ConfigPorts", "Targeting", "FlagdFormat", "RemoteConfig", "TestDoubles"],
            resources: [.copy("Conformance")], swiftSettings: swiftSettings),

        // MARK: Differential tests: the vendor formats against the vendors' own engines, and OFREP against fast-feature's
        // server (Python oracles, child processes)
        .testTarget(
            name: "VendorDifferentialTests",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "GrowthBookFormat", "UnleashFormat", "FlagdFormat", "OFREPAdapter", "RemoteConfig",
                "TestSupport", "LaunchDarklyFormat", "ConfigCatFormat", "FirebaseFormat",
            ],
            path: "Integration/VendorDifferential", exclude: ["Oracles"], swiftSettings: swiftSettings),

        // MARK: Integration tests (real server, real file system, child processes)
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "RemoteConfig", "HTTPAdapter", "FileCacheAdapter", "EnvAdapter", "TestDoubles",
                "FirebaseFormat", "TestSupport", "SSEAdapter", "SigningAdapter", "EtcdAdapter", "Targeting", "TargetingFormat",
                "OFREPAdapter", "GrowthBookFormat", "FlagdFormat", "LaunchDarklyFormat",
            ],
            path: "Integration/IntegrationTests", swiftSettings: swiftSettings),

        // MARK: Example custom adapter (an EXAMPLE for users, written as they would write one: not a product, and
        // no library target depends on it). Its test target runs FetcherContract on it; see its README.md.
        .target(
            name: "ExampleDirectoryAdapter", dependencies: ["ConfigDomain", "ConfigPorts"],
            path: "Integration/ExampleAdapter/Sources", swiftSettings: swiftSettings),
        .testTarget(
            name: "ExampleDirectoryAdapterTests",
            dependencies: ["ExampleDirectoryAdapter", "ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles"],
            path: "Integration/ExampleAdapter/Tests", swiftSettings: swiftSettings),
    ]
)

// MARK: Ecosystem adapters (Swift 6.2 and later)
// swift-configuration, swift-log and swift-metrics declare swift-tools-version 6.2, so the adapters that exist for
// them, their tests and the server example are declared only for a 6.2 or later toolchain; with Swift 6.1 the rest
// of the package resolves and builds as before. Each adapter depends on exactly one ecosystem package, the edge
// recorded in Tests/ConfigPortsTests/DependencyRuleTests.swift.
#if compiler(>=6.2)
    package.dependencies += [
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-service-context", from: "1.5.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Only the Hummingbird example server uses it (Development trait).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ]
    package.products += [
        .library(name: "ConfigurationAdapter", targets: ["ConfigurationAdapter"]),
        .library(name: "LoggingAdapter", targets: ["LoggingAdapter"]),
        .library(name: "MetricsAdapter", targets: ["MetricsAdapter"]),
        .library(name: "ServiceContextAdapter", targets: ["ServiceContextAdapter"]),
        .library(name: "ServiceLifecycleAdapter", targets: ["ServiceLifecycleAdapter"]),
    ]
    package.targets += [
        .target(
            name: "ConfigurationAdapter",
            dependencies: [
                "ConfigDomain", "ConfigPorts",
                .product(name: "Configuration", package: "swift-configuration", condition: .when(traits: ["ConfigurationAdapter"])),
            ],
            path: "Modules/ConfigurationAdapter", swiftSettings: swiftSettings),
        .target(
            name: "LoggingAdapter",
            dependencies: [
                "ConfigDomain", "ConfigPorts",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["LoggingAdapter"])),
            ],
            path: "Modules/LoggingAdapter", swiftSettings: swiftSettings),
        .target(
            name: "MetricsAdapter",
            dependencies: [
                "ConfigDomain", "ConfigPorts",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["MetricsAdapter"])),
            ],
            path: "Modules/MetricsAdapter", swiftSettings: swiftSettings),
        // The request's user in swift-service-context's task-local `ServiceContext`, as an `EvaluationContextSource`.
        .target(
            name: "ServiceContextAdapter",
            dependencies: [
                "ConfigDomain", "ConfigPorts",
                .product(
                    name: "ServiceContextModule", package: "swift-service-context", condition: .when(traits: ["ServiceContextAdapter"])),
            ],
            path: "Modules/ServiceContextAdapter", swiftSettings: swiftSettings),
        // A `ConfigurationLifecycle` (the client's background work) as a swift-service-lifecycle `Service`.
        .target(
            name: "ServiceLifecycleAdapter",
            dependencies: [
                "ConfigDomain", "ConfigPorts",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["ServiceLifecycleAdapter"])),
            ],
            path: "Modules/ServiceLifecycleAdapter", swiftSettings: swiftSettings),
        .testTarget(
            name: "ConfigurationAdapterTests",
            dependencies: [
                "ConfigurationAdapter", "ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles",
                development("Configuration", "swift-configuration"),
                development("ConfigurationTesting", "swift-configuration"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "LoggingAdapterTests",
            dependencies: [
                "LoggingAdapter", "ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles",
                development("Logging", "swift-log"), development("InMemoryLogging", "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "MetricsAdapterTests",
            dependencies: [
                "MetricsAdapter", "ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles",
                development("CoreMetrics", "swift-metrics"),
                development("MetricsTestKit", "swift-metrics"),
            ],
            swiftSettings: swiftSettings),
        // A server that reads a flag through swift-configuration's ConfigReader and logs through swift-log (an
        // EXAMPLE, not a product); IntegrationTests runs it against a real server.
        .executableTarget(
            name: "ServerFlagsExample",
            dependencies: [
                "RemoteConfig", "HTTPAdapter", "ConfigurationAdapter", "LoggingAdapter",
                development("Configuration", "swift-configuration"),
                development("Logging", "swift-log"),
            ],
            path: "Integration/Examples/ServerFlags", swiftSettings: swiftSettings),
        .testTarget(
            name: "ServiceContextAdapterTests",
            dependencies: [
                "ServiceContextAdapter", "ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles",
                development("ServiceContextModule", "swift-service-context"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ServiceLifecycleAdapterTests",
            dependencies: [
                "ServiceLifecycleAdapter", "ConfigDomain", "ConfigPorts", "RemoteConfig", "TestDoubles",
                development("ServiceLifecycle", "swift-service-lifecycle"),
                development("Logging", "swift-log"),
            ],
            swiftSettings: swiftSettings),
        // A Hummingbird 2 server that evaluates targeted flags per request (an EXAMPLE, not a product); the
        // ServerIntegrationTests put it under concurrent load. See its README.md.
        .executableTarget(
            name: "HummingbirdFlagsExample",
            dependencies: [
                "RemoteConfig", "HTTPAdapter", "TargetingFormat", "ServiceContextAdapter", "ServiceLifecycleAdapter",
                development("Hummingbird", "hummingbird"),
                development("ServiceContextModule", "swift-service-context"),
                development("ServiceLifecycle", "swift-service-lifecycle"),
                development("Logging", "swift-log"),
            ],
            path: "Integration/Examples/HummingbirdFlags", exclude: ["README.md", "load"], swiftSettings: swiftSettings),
    ]
#endif

if includeBenchmarks {
    package.dependencies += [
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ]
    package.targets += [
        .executableTarget(
            name: "RemoteConfigBenchmarks",
            dependencies: [
                "ConfigDomain", "ConfigPorts", "RemoteConfig", "FileCacheAdapter", "FirebaseFormat", "TestDoubles",
                "Targeting", "TargetingFormat", "BenchmarkWorkloads", .product(name: "Benchmark", package: "package-benchmark"),
                development("Configuration", "swift-configuration"), "ServiceContextAdapter",
                development("ServiceContextModule", "swift-service-context"),
            ],
            path: "Integration/Benchmarks/RemoteConfigBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    ]
}

if includeDocs {
    package.dependencies += [.package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0")]
}

/// `RC_CORE_ONLY=1` declares only the core, app support, the test doubles and the client's tests, for `make test-tsan`:
/// the thread sanitizer then builds those six modules, not the whole package with its tools and third-party packages.
if ProcessInfo.processInfo.environment["RC_CORE_ONLY"] == "1" {
    let core: Set = ["ConfigDomain", "ConfigPorts", "RemoteConfig", "RemoteConfigApp", "TestDoubles", "RemoteConfigTests"]
    package.targets = package.targets.filter { core.contains($0.name) }
    package.products = package.products.filter { core.contains($0.name) }
    package.dependencies = []
}

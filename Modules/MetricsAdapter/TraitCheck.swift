// MetricsAdapter exists for apple/swift-metrics, which the package resolves only for an app that enables the trait of the same name.
#if !MetricsAdapter
    #error(
        "MetricsAdapter needs the package trait \"MetricsAdapter\": .package(url: …, from: …, traits: [\"MetricsAdapter\"]) in your Package.swift"
    )
#endif

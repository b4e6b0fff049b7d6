// LoggingAdapter exists for apple/swift-log, which the package resolves only for an app that enables the trait of the same name.
#if !LoggingAdapter
    #error(
        "LoggingAdapter needs the package trait \"LoggingAdapter\": .package(url: …, from: …, traits: [\"LoggingAdapter\"]) in your Package.swift"
    )
#endif

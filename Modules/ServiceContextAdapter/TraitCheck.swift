// ServiceContextAdapter exists for apple/swift-service-context, which the package resolves only for an app that enables the
// trait of the same name.
#if !ServiceContextAdapter
    #error(
        "ServiceContextAdapter needs the package trait \"ServiceContextAdapter\": .package(url: …, from: …, traits: [\"ServiceContextAdapter\"]) in your Package.swift"
    )
#endif

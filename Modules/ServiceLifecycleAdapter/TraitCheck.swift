// ServiceLifecycleAdapter exists for swift-server/swift-service-lifecycle, which the package resolves only for an app that
// enables the trait of the same name.
#if !ServiceLifecycleAdapter
    #error(
        "ServiceLifecycleAdapter needs the package trait \"ServiceLifecycleAdapter\": .package(url: …, from: …, traits: [\"ServiceLifecycleAdapter\"]) in your Package.swift"
    )
#endif

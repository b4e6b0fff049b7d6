// ConfigurationAdapter exists for apple/swift-configuration, which the package resolves only for an app that enables the trait of the same name.
#if !ConfigurationAdapter
    #error(
        "ConfigurationAdapter needs the package trait \"ConfigurationAdapter\": .package(url: …, from: …, traits: [\"ConfigurationAdapter\"]) in your Package.swift"
    )
#endif

// SigningAdapter exists for apple/swift-crypto, which the package resolves only for an app that enables the trait of the same name.
#if !SigningAdapter
    #error(
        "SigningAdapter needs the package trait \"SigningAdapter\": .package(url: …, from: …, traits: [\"SigningAdapter\"]) in your Package.swift"
    )
#endif

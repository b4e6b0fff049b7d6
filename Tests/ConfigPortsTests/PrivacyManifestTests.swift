import Foundation
import Testing

/// Each library module that calls an API Apple requires a reason for ships a `PrivacyInfo.xcprivacy`
/// that declares the API's category with a reason, and Package.swift copies it as a resource, so an app
/// that links the module inherits the declaration. The module's code is searched for the calls.
@Suite("Privacy manifests")
struct PrivacyManifestTests {
    /// A required-reason API category, the calls that belong to it, and the reasons this library may give.
    struct Category: Sendable, CustomStringConvertible {
        var name: String
        /// Text that, found in a module's code (outside comments), means the module uses the category.
        var calls: [String]
        /// The reasons that fit this library's use (Apple's codes).
        var reasons: Set<String>
        var description: String { name }
    }

    static let categories = [
        Category(name: "NSPrivacyAccessedAPICategoryUserDefaults", calls: ["UserDefaults"], reasons: ["CA92.1"]),
        Category(
            name: "NSPrivacyAccessedAPICategoryFileTimestamp",
            calls: [
                "stat(", "fstat(", "lstat(", "getattrlist(", ".modificationDate", ".creationDate", "contentModificationDate",
            ],
            reasons: ["C617.1"]),
        Category(
            name: "NSPrivacyAccessedAPICategorySystemBootTime", calls: ["systemUptime", "mach_absolute_time("],
            reasons: ["35F9.1"]),
        Category(
            name: "NSPrivacyAccessedAPICategoryDiskSpace",
            calls: ["volumeAvailableCapacity", "systemFreeSize", "statfs(", "statvfs("], reasons: ["E174.1"]),
    ]

    /// The library modules apps link (TestDoubles is for tests only).
    static let modules = DependencyRuleTests.modules.filter { $0 != "TestDoubles" }

    /// The categories whose calls appear in `module`'s Swift code, outside `//` comments.
    static func categoriesUsed(by module: String) throws -> [Category] {
        let folder = DependencyRuleTests.root.appendingPathComponent("Modules").appendingPathComponent(module)
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var code = ""
        for case let file as URL in enumerator where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                code += (line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]) + "\n"
            }
        }
        return categories.filter { category in category.calls.contains { code.contains($0) } }
    }

    /// The categories a manifest declares, each with its reasons; nil when the module has no manifest.
    static func declared(by module: String) throws -> [String: Set<String>]? {
        let file = DependencyRuleTests.root.appendingPathComponent("Modules/\(module)/PrivacyInfo.xcprivacy")
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            "\(file.path) is not a dictionary")
        #expect(plist["NSPrivacyTracking"] as? Bool == false, "\(module) declares tracking")
        let types = try #require(
            plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]], "\(module): no NSPrivacyAccessedAPITypes")
        var found: [String: Set<String>] = [:]
        for entry in types {
            let name = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            found[name] = Set(entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? [])
        }
        return found
    }

    @Test(
        "a module that calls a required-reason API declares its category and a reason, and ships the manifest", arguments: modules
    )
    func manifestMatchesTheCode(_ module: String) throws {
        let used = try Self.categoriesUsed(by: module)
        let declared = try Self.declared(by: module)
        guard !used.isEmpty || declared != nil else { return }
        let manifest = try #require(declared, "\(module) calls \(used) but has no Modules/\(module)/PrivacyInfo.xcprivacy")
        for category in used {
            let reasons = manifest[category.name] ?? []
            #expect(!reasons.isEmpty, "\(module) calls an API of \(category.name) but its manifest gives no reason for it")
            #expect(reasons.isSubset(of: category.reasons), "\(module) gives \(reasons.sorted()) for \(category.name)")
        }
        let extra = Set(manifest.keys).subtracting(used.map(\.name))
        #expect(extra.isEmpty, "\(module)'s manifest declares \(extra.sorted()), which its code no longer calls")
        let target = try #require(
            DependencyRuleTests.declaredTargets(in: DependencyRuleTests.manifest()).first { $0.path == "Modules/\(module)" })
        #expect(
            target.resources.contains("PrivacyInfo.xcprivacy"), "Package.swift does not copy \(module)'s manifest as a resource")
    }

    @Test("the search finds the calls it looks for, and ignores them in comments")
    func searchFindsCalls() throws {
        #expect(try Self.categoriesUsed(by: "DefaultsAdapter").map(\.name).contains("NSPrivacyAccessedAPICategoryUserDefaults"))
        #expect(try Self.categoriesUsed(by: "FileCacheAdapter").map(\.name).contains("NSPrivacyAccessedAPICategoryFileTimestamp"))
        #expect(try Self.categoriesUsed(by: "ConfigDomain").isEmpty, "ConfigDomain names UserDefaults only in a comment")
    }
}

import ConfigDomain
import ConfigPorts
import DefaultsAdapter
import Foundation
import RemoteConfig
import Testing

@Suite("Bundled defaults files")
struct BundledDefaultsFileTests {
    @Test("a plist defaults file: a first launch offline shows its values, typed as the file says")
    func plistFile() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("defaults.plist")
            try write(
                plist(
                    """
                    <key>new_checkout</key><true/>
                    <key>max_retries</key><integer>6</integer>
                    <key>ratio</key><real>0.25</real>
                    <key>title</key><string>Shipped</string>
                    <key>tags</key><array><string>a</string><string>b</string></array>
                    """), to: file)
            let defaults = try BundledDefaults(contentsOf: file)
            #expect(defaults.source == "defaults.plist")
            #expect(defaults.values["new_checkout"] == .bool(true))
            #expect(defaults.values["max_retries"] == .int(6))
            #expect(defaults.values["ratio"] == .double(0.25))

            let client = try offlineBuilder().bundledDefaults(defaults).build()
            #expect(client[AppKeys.newCheckout] == true)
            #expect(client[AppKeys.maxRetries] == 6)
            #expect(client[AppKeys.ratio] == 0.25)
            #expect(client[AppKeys.title] == "Shipped")
            #expect(client[AppKeys.tags] == ["a", "b"])
            #expect(client.details(AppKeys.title).layer == .bundledDefaults(source: "defaults.plist"))
        }
    }

    @Test("a JSON defaults file reads the same way, and a binary plist too")
    func jsonAndBinaryFiles() async throws {
        try await withTemporaryDirectory { folder in
            let json = folder.appendingPathComponent("defaults.json")
            try write(#"{"max_retries": 8, "title": "From JSON", "server_url": "https://eu.example.com"}"#, to: json)
            let client = try offlineBuilder().bundledDefaults(try BundledDefaults(contentsOf: json)).build()
            #expect(client[AppKeys.maxRetries] == 8)
            #expect(client[AppKeys.title] == "From JSON")
            #expect(client[AppKeys.serverURL] == URL(string: "https://eu.example.com"))
            #expect(client.details(AppKeys.maxRetries).layer == .bundledDefaults(source: "defaults.json"))

            let binary = folder.appendingPathComponent("defaults-binary.plist")
            let bytes = try PropertyListSerialization.data(
                fromPropertyList: ["max_retries": 9, "new_checkout": false] as [String: Any], format: .binary, options: 0)
            try bytes.write(to: binary)
            let fromBinary = try BundledDefaults(contentsOf: binary)
            #expect(fromBinary.values == ["max_retries": .int(9), "new_checkout": .bool(false)])
        }
    }

    @Test("a missing file is unreadable, and says to check the app's bundle")
    func missingFile() async throws {
        try await withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("absent.json")
            #expect {
                _ = try BundledDefaults(contentsOf: file)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .unreadable && error.file == file.path
                    && error.message.contains("copied into the app's bundle")
            }
        }
    }

    @Test("a resource the bundle lacks is unreadable, and says to add it to the app target")
    func missingResource() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try #require(Bundle(path: folder.path))
            #expect {
                _ = try BundledDefaults(resource: "defaults", withExtension: "plist", in: bundle)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .unreadable && error.file == "defaults.plist"
                    && error.message.contains("add the file to the app target's resources")
            }
            let app = folder.appendingPathComponent("Resources")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            try write(#"{"title": "In the bundle"}"#, to: app.appendingPathComponent("defaults.json"))
            let withResource = try #require(Bundle(path: app.path))
            let found = try BundledDefaults(resource: "defaults", withExtension: "json", in: withResource)
            #expect(found.values == ["title": "In the bundle"])
        }
    }

    @Test("a file that does not decode is malformed, with the parser's position")
    func malformedFiles() async throws {
        try await withTemporaryDirectory { folder in
            let json = folder.appendingPathComponent("broken.json")
            try write(#"{"max_retries": 8,}"#, to: json)
            #expect {
                _ = try BundledDefaults(contentsOf: json)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .malformed && error.message.hasPrefix("invalid json payload at byte 17: a comma before the closing")
            }
            let array = folder.appendingPathComponent("array.plist")
            try write(
                #"<?xml version="1.0"?><plist version="1.0"><array><integer>1</integer></array></plist>"#, to: array)
            #expect {
                _ = try BundledDefaults(contentsOf: array)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .malformed && error.message.contains("the top level must be a dictionary")
            }
        }
    }
}

import ConfigDomain
import ConfigPorts
import DefaultsAdapter
import Foundation
import RemoteConfig
import Testing

/// Builds a real `Settings.bundle` folder, one property list per pane.
struct SettingsBundleFolder {
    let url: URL

    init(in folder: URL) throws {
        url = folder.appendingPathComponent("Settings.bundle")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes the pane `name` with these specifiers (each a `<dict>` body).
    func pane(_ name: String, _ specifiers: [String]) throws {
        let items = specifiers.map { "<dict>\($0)</dict>" }.joined(separator: "\n")
        try write(
            plist("<key>StringsTable</key><string>Root</string><key>PreferenceSpecifiers</key><array>\(items)</array>"),
            to: url.appendingPathComponent("\(name).plist"))
    }
}

/// Specifiers as Xcode's Settings.bundle template writes them.
enum Specifier {
    static func group(_ title: String) -> String {
        "<key>Type</key><string>PSGroupSpecifier</string><key>Title</key><string>\(title)</string>"
    }
    static func toggle(_ key: String, _ value: Bool) -> String {
        "<key>Type</key><string>PSToggleSwitchSpecifier</string><key>Title</key><string>\(key)</string>"
            + "<key>Key</key><string>\(key)</string><key>DefaultValue</key><\(value)/>"
    }
    static func text(_ key: String, _ value: String) -> String {
        "<key>Type</key><string>PSTextFieldSpecifier</string><key>Title</key><string>\(key)</string>"
            + "<key>Key</key><string>\(key)</string><key>DefaultValue</key><string>\(value)</string>"
    }
    static func slider(_ key: String, _ value: Double) -> String {
        "<key>Type</key><string>PSSliderSpecifier</string><key>Key</key><string>\(key)</string>"
            + "<key>DefaultValue</key><real>\(value)</real><key>MinimumValue</key><real>0</real>"
            + "<key>MaximumValue</key><real>1</real>"
    }
    static func multiValue(_ key: String, _ value: Int) -> String {
        "<key>Type</key><string>PSMultiValueSpecifier</string><key>Title</key><string>\(key)</string>"
            + "<key>Key</key><string>\(key)</string><key>DefaultValue</key><integer>\(value)</integer>"
            + "<key>Values</key><array><integer>\(value)</integer></array>"
            + "<key>Titles</key><array><string>\(value)</string></array>"
    }
    static func childPane(_ file: String) -> String {
        "<key>Type</key><string>PSChildPaneSpecifier</string><key>Title</key><string>\(file)</string>"
            + "<key>File</key><string>\(file)</string>"
    }
}

@Suite("Settings.bundle defaults")
struct SettingsBundleTests {
    @Test("Root.plist and its child panes become defaults the client reads, named Settings.bundle")
    func rootAndChildPane() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try SettingsBundleFolder(in: folder)
            try bundle.pane(
                "Root",
                [
                    Specifier.group("Checkout"), Specifier.toggle("new_checkout", true),
                    Specifier.childPane("Advanced"),
                ])
            try bundle.pane("Advanced", [Specifier.multiValue("max_retries", 4), Specifier.childPane("Network")])
            try bundle.pane(
                "Network",
                [Specifier.slider("ratio", 0.75), Specifier.text("title", "From Settings"), Specifier.childPane("Advanced")])

            let defaults = try BundledDefaults(settingsBundle: bundle.url)
            #expect(defaults.source == "Settings.bundle")
            #expect(
                defaults.values == [
                    "new_checkout": .bool(true), "max_retries": .int(4), "ratio": .double(0.75), "title": "From Settings",
                ])

            let client = try offlineBuilder().bundledDefaults(defaults).build()
            #expect(client[AppKeys.newCheckout] == true)
            #expect(client[AppKeys.maxRetries] == 4)
            #expect(client[AppKeys.ratio] == 0.75)
            #expect(client.details(AppKeys.ratio).layer == .bundledDefaults(source: "Settings.bundle"))
        }
    }

    @Test("a defaults file added first wins over the Settings.bundle")
    func fileOverBundle() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try SettingsBundleFolder(in: folder)
            try bundle.pane("Root", [Specifier.multiValue("max_retries", 4), Specifier.text("title", "Settings")])
            let file = BundledDefaults(values: ["max_retries": 9], source: "defaults.json")
            let client = try offlineBuilder()
                .bundledDefaults(file).bundledDefaults(try BundledDefaults(settingsBundle: bundle.url)).build()
            #expect(client[AppKeys.maxRetries] == 9)
            #expect(client[AppKeys.title] == "Settings")
        }
    }

    @Test("a bundle without Root.plist, or a folder that is not one, is unreadable")
    func missingRoot() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try SettingsBundleFolder(in: folder)
            #expect {
                _ = try BundledDefaults(settingsBundle: bundle.url)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .unreadable && error.file == "Settings.bundle/Root.plist"
            }
            let appWithoutSettings = folder.appendingPathComponent("Plain.app")
            try FileManager.default.createDirectory(at: appWithoutSettings, withIntermediateDirectories: true)
            let plain = try #require(Bundle(path: appWithoutSettings.path))
            #expect {
                _ = try BundledDefaults(settingsBundleOf: plain)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .unreadable && error.message.contains("has no Settings.bundle")
            }
        }
    }

    @Test("a child pane whose file is missing names the pane and the file that leads to it")
    func missingChildPane() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try SettingsBundleFolder(in: folder)
            try bundle.pane("Root", [Specifier.toggle("new_checkout", true), Specifier.childPane("Missing")])
            #expect {
                _ = try BundledDefaults(settingsBundle: bundle.url)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .missingChildPane && error.file == "Settings.bundle/Missing.plist"
                    && error.message.contains("in Settings.bundle/Root.plist")
            }
        }
    }

    @Test("two defaults for one key, in two panes, are refused with both files named")
    func duplicateKey() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try SettingsBundleFolder(in: folder)
            try bundle.pane("Root", [Specifier.toggle("new_checkout", true), Specifier.childPane("Debug")])
            try bundle.pane("Debug", [Specifier.toggle("new_checkout", false)])
            #expect {
                _ = try BundledDefaults(settingsBundle: bundle.url)
            } throws: { error in
                guard let error = error as? BundledDefaultsError else { return false }
                return error.kind == .duplicateKey
                    && error.message.contains("both Settings.bundle/Root.plist and Settings.bundle/Debug.plist")
            }
        }
    }

    @Test("a pane that is not a dictionary of specifiers, a specifier that is not a dictionary, or a date default is malformed")
    func malformedPanes() async throws {
        try await withTemporaryDirectory { folder in
            let bundle = try SettingsBundleFolder(in: folder)
            let root = bundle.url.appendingPathComponent("Root.plist")
            func expectMalformed(_ text: String, _ fragment: String) throws {
                try write(text, to: root)
                #expect {
                    _ = try BundledDefaults(settingsBundle: bundle.url)
                } throws: { error in
                    guard let error = error as? BundledDefaultsError else { return false }
                    return error.kind == .malformed && error.message.contains(fragment)
                }
            }
            try expectMalformed("not a property list", "not a readable property list")
            try expectMalformed(plist("<key>Title</key><string>No specifiers</string>"), "PreferenceSpecifiers array")
            try expectMalformed(
                plist("<key>PreferenceSpecifiers</key><array><string>oops</string></array>"), "preference 0 is not a dictionary")
            try expectMalformed(
                plist(
                    "<key>PreferenceSpecifiers</key><array><dict><key>Key</key><string>since</string>"
                        + "<key>DefaultValue</key><date>2024-01-01T00:00:00Z</date></dict></array>"),
                "preference 0 (since): a property list date has no JSON form")
        }
    }
}

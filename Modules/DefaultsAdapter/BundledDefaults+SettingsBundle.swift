import ConfigDomain
import Foundation

extension BundledDefaults {
    /// Reads the default of every preference in a `Settings.bundle`: `Root.plist`, then each child
    /// pane it leads to (`PSChildPaneSpecifier`), by each preference's `Key` and `DefaultValue`.
    ///
    /// ```swift
    /// builder.bundledDefaults(try BundledDefaults(settingsBundleOf: .main))
    /// ```
    ///
    /// Preferences without a key or a default (groups, titles without defaults) are skipped; a
    /// pane reached twice is read once. The source in provenance is `Settings.bundle`.
    ///
    /// - Throws: `BundledDefaultsError`: `.unreadable` for a missing bundle or `Root.plist`;
    ///   `.malformed` for a file that is not a dictionary with a `PreferenceSpecifiers` array of
    ///   dictionaries, or a default with no JSON form (a date, data); `.missingChildPane` for a
    ///   child pane whose file is missing; `.duplicateKey` for two defaults of one key.
    public init(settingsBundle url: URL) throws(BundledDefaultsError) {
        var reader = SettingsBundleReader(bundle: url)
        try reader.readPane("Root", from: nil)
        self.init(values: reader.values, source: url.lastPathComponent)
    }

    /// Reads the `Settings.bundle` inside `bundle` (the app's, by default).
    ///
    /// - Throws: `BundledDefaultsError` (`.unreadable`) when `bundle` has no `Settings.bundle`, and
    ///   every error of ``init(settingsBundle:)``.
    public init(settingsBundleOf bundle: Bundle = .main) throws(BundledDefaultsError) {
        guard let url = bundle.url(forResource: "Settings", withExtension: "bundle") else {
            throw BundledDefaultsError(
                .unreadable, file: bundle.bundleURL.appendingPathComponent("Settings.bundle").path,
                message: "the app has no Settings.bundle; add one to the app target, or drop this source")
        }
        try self.init(settingsBundle: url)
    }
}

/// Walks a `Settings.bundle`'s panes, collecting each preference's default.
private struct SettingsBundleReader {
    let bundle: URL
    var values: [String: ConfigValue] = [:]
    /// Which file set each key's default, for the duplicate message.
    var definedIn: [String: String] = [:]
    var visited: Set<String> = []

    init(bundle: URL) { self.bundle = bundle }

    /// `Settings.bundle/Child.plist`, for messages.
    func display(_ file: String) -> String { "\(bundle.lastPathComponent)/\(file)" }

    /// Reads the pane `name` (`Root`, or a child pane's `File`), reached from the pane `parent`.
    mutating func readPane(_ name: String, from parent: String?) throws(BundledDefaultsError) {
        let file = name + ".plist"
        guard visited.insert(file).inserted else { return }
        let url = bundle.appendingPathComponent(file)
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            guard let parent else {
                throw BundledDefaultsError(
                    .unreadable, file: display(file), message: "the bundle has no Root.plist; is this a Settings.bundle?")
            }
            throw BundledDefaultsError(
                .missingChildPane, file: display(file),
                message: "the child pane \"\(name)\" in \(display(parent)) names a file the bundle does not have")
        }
        for (index, specifier) in try specifiers(in: bytes, file: file).enumerated() {
            if specifier["Type"] as? String == "PSChildPaneSpecifier", let child = specifier["File"] as? String {
                try readPane(child, from: file)
            }
            guard let key = specifier["Key"] as? String, let object = specifier["DefaultValue"] else { continue }
            let value: ConfigValue
            do throws(ConversionError) {
                value = try ConfigValue(propertyList: object)
            } catch {
                throw BundledDefaultsError(
                    .malformed, file: display(file), message: "preference \(index) (\(key)): \(error.reason)")
            }
            if let first = definedIn[key] {
                throw BundledDefaultsError(
                    .duplicateKey, file: display(file),
                    message: "the key \"\(key)\" has a default in both \(display(first)) and \(display(file)); keep one")
            }
            values[key] = value
            definedIn[key] = file
        }
    }

    /// The `PreferenceSpecifiers` of a pane's property list.
    func specifiers(in bytes: Data, file: String) throws(BundledDefaultsError) -> [[String: Any]] {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: bytes, format: nil)
        } catch {
            throw BundledDefaultsError(
                .malformed, file: display(file), message: "not a readable property list (\(error.localizedDescription))")
        }
        guard let pane = object as? [String: Any], let specifiers = pane["PreferenceSpecifiers"] as? [Any] else {
            throw BundledDefaultsError(
                .malformed, file: display(file), message: "expected a dictionary with a PreferenceSpecifiers array")
        }
        var dictionaries: [[String: Any]] = []
        for (index, specifier) in specifiers.enumerated() {
            guard let dictionary = specifier as? [String: Any] else {
                throw BundledDefaultsError(
                    .malformed, file: display(file), message: "preference \(index) is not a dictionary")
            }
            dictionaries.append(dictionary)
        }
        return dictionaries
    }
}

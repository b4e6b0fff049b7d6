import ConfigDomain
import ConfigPorts
import Foundation

/// One `UserDefaults` suite (nil: the standard defaults), how key names map into it, and how its
/// objects read as overrides: what the override source and the settings store share.
struct DefaultsSuite: Sendable {
    /// The defaults, used only inside `withLock`.
    private let defaults: Locked<UserDefaults>
    /// The suite's name, or nil for the app's own defaults.
    let suiteName: String?
    /// Put before each key's name: `rc.` makes `new_checkout` the defaults key `rc.new_checkout`.
    let keyPrefix: String
    /// `UserDefaults` or `UserDefaults(<suite>)`, for provenance.
    let label: String

    /// Opens the suite.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) for a suite name UserDefaults
    ///   refuses: `NSGlobalDomain` or the app's own bundle identifier (use nil for the app's defaults).
    init(suiteName: String?, keyPrefix: String) throws(ConfigurationError) {
        let opened: UserDefaults?
        if let suiteName {
            let refused = suiteName == "NSGlobalDomain" || suiteName == Bundle.main.bundleIdentifier
            opened = refused ? nil : UserDefaults(suiteName: suiteName)
        } else {
            opened = .standard
        }
        guard let defaults = opened else {
            throw ConfigurationError(
                .invalidAdapterSetting,
                "UserDefaults refuses the suite name \"\(suiteName ?? "")\": it may not be NSGlobalDomain or the app's "
                    + "bundle identifier; pass nil for the app's own defaults, or an App Group identifier")
        }
        self.defaults = Locked(defaults)
        self.suiteName = suiteName
        self.keyPrefix = keyPrefix
        self.label = suiteName.map { "UserDefaults(\($0))" } ?? "UserDefaults"
    }

    /// The values stored for `keys`: a string as text (coerced to the key's type, as typed in
    /// the Settings app), anything else as a value; an object with no JSON form is a problem.
    func read(_ keys: [KeyDescriptor]) -> OverrideSnapshot {
        var values: [String: OverrideValue] = [:]
        var problems: [String] = []
        defaults.withLock { defaults in
            for key in keys {
                let defaultsKey = keyPrefix + key.name
                guard let object = defaults.object(forKey: defaultsKey) else { continue }
                let origin = "\(label):\(defaultsKey)"
                if let text = object as? String {
                    values[key.name] = OverrideValue(.text(text), origin: origin)
                    continue
                }
                do throws(ConversionError) {
                    values[key.name] = OverrideValue(.value(try ConfigValue(propertyList: object)), origin: origin)
                } catch {
                    problems.append("\(defaultsKey) is ignored: \(error.reason)")
                }
            }
        }
        return OverrideSnapshot(values: values, problems: problems)
    }

    /// Stores a property-list object as `name`'s value, or removes it when `object` is nil.
    func write(_ object: Any?, for name: String) {
        defaults.withLock { defaults in
            // `removeObject`, not `set(nil, …)`, which never returns on Linux (swift-corelibs-foundation).
            if let object {
                defaults.set(object, forKey: keyPrefix + name)
            } else {
                defaults.removeObject(forKey: keyPrefix + name)
            }
        }
    }
}

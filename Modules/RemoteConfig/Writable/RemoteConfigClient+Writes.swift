import ConfigDomain
import ConfigPorts
import Foundation

extension RemoteConfigClient {
    /// Writes the value of a writable key: it must pass the key's rules; it is kept by the settings
    /// store and read at once, over every remote snapshot and under the overrides.
    ///
    /// ```swift
    /// try client.set(Flags.theme, .dark)
    /// ```
    ///
    /// - Throws: `ConfigError/configuration(_:)` (`.notWritable`) when the key is not registered
    ///   writable or is locked in this build; `ConfigError/rejected(_:)` when a rule rejects the
    ///   value or the store cannot keep it. The previous value stays.
    public func set<Value>(_ key: ConfigKey<Value>, _ value: Value) throws(ConfigError) {
        let descriptor = try writableDescriptor(of: key)
        if case .failure(let rejection) = key.validate(value, origin: writes.name) { throw .rejected(rejection) }
        guard let raw = key.converter.toValue(value) else {
            throw .configuration(
                ConfigurationError(
                    .notWritable, "values of \(key.converter.typeName) cannot be stored; make the type Encodable to write it"))
        }
        try save(raw, for: key, descriptor)
        activator.write(OverrideValue(.value(raw), origin: "\(writes.name):\(key.name)"), for: key.name)
    }

    /// Removes the value the app wrote to a writable key: reads see the layers under it again.
    ///
    /// - Throws: `ConfigError/configuration(_:)` (`.notWritable`) when the key is not registered
    ///   writable or is locked in this build.
    public func reset<Value>(_ key: ConfigKey<Value>) throws(ConfigError) {
        try save(nil, for: key, try writableDescriptor(of: key))
        activator.write(nil, for: key.name)
    }

    /// The registered key's descriptor, when the app may write it in this build.
    private func writableDescriptor<Value>(of key: ConfigKey<Value>) throws(ConfigError) -> KeyDescriptor {
        guard let slot = registry.slot(named: key.name, hash: key.nameHash), registry.valueType(at: slot) == key.valueType else {
            throw .configuration(
                ConfigurationError(
                    .notWritable,
                    "the key \"\(key.name)\" (\(key.converter.typeName)) is not registered; register it with "
                        + ".register { key.writable() } to write it"))
        }
        guard let access = registry.writeAccess[slot] else {
            throw .configuration(
                ConfigurationError(
                    .notWritable, "the key \"\(key.name)\" is read-only; register it as key.writable() to write it"))
        }
        guard writes.allows(access) else {
            throw .configuration(
                ConfigurationError(
                    .notWritable,
                    "the key \"\(key.name)\" is locked in release builds; register it as key.writable(inRelease: true) "
                        + "to allow writes in release"))
        }
        return KeyRegistry.descriptor(of: registry.keys[slot])
    }

    /// Hands the value to the settings store (no store: memory only, nothing to save).
    private func save<Value>(_ raw: ConfigValue?, for key: ConfigKey<Value>, _ descriptor: KeyDescriptor) throws(ConfigError) {
        guard let store = writes.store else { return }
        do throws(ConversionError) {
            try store.save(raw, for: descriptor)
        } catch {
            throw .rejected(
                Rejection(
                    key: key.name, value: key.isSecret ? Rejection.redacted : error.found, rule: "storable",
                    reason: "\(store.name) cannot keep it: \(error.reason)", origin: store.name))
        }
    }
}

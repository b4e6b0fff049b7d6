import Foundation

/// Where a configuration lives in etcd: one key holding a JSON document, or one etcd key per config key.
///
/// - ``document(key:)``: the key's value is the whole payload, a JSON object of config keys to
///   values, exactly as `remote-config publish` writes it. The version is the key's `mod_revision`.
/// - ``prefix(_:)``: every etcd key under the prefix is one config key, named by the rest of the
///   etcd key (`/app/flags/` + `max_retries` is `max_retries`). Each value is decoded on its own:
///   a value that is valid JSON is that JSON value (`3`, `true`, `"text"`, `{"a":1}`); any other
///   UTF-8 text is a string (`hello`). So `3` is a number and `"3"` is a string; a value a key's
///   type cannot take is rejected by that key alone, as for any payload. The payload handed to the
///   client is the JSON object of all of them, with sorted keys. The version is the highest
///   `mod_revision` among the keys together with their number (a deletion leaves no revision behind
///   in the keys that remain, but it changes their number).
public enum EtcdLayout: Sendable, Hashable, CustomStringConvertible {
    /// One etcd key whose value is the whole JSON document.
    case document(key: String)
    /// Every etcd key starting with this prefix is one config key.
    case prefix(String)

    /// The etcd key or prefix.
    public var path: String {
        switch self {
        case .document(let key): key
        case .prefix(let prefix): prefix
        }
    }

    /// `key /app/config` or `prefix /app/flags/`.
    public var description: String {
        switch self {
        case .document(let key): "key \(key)"
        case .prefix(let prefix): "prefix \(prefix)"
        }
    }
}

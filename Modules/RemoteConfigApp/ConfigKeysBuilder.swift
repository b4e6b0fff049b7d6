import ConfigDomain
import Foundation
import RemoteConfig

/// Lists keys one per line for `RemoteConfigBuilder.register { … }`: keys, arrays
/// of keys, and `if`, `switch` and `for` around them.
@resultBuilder
public enum ConfigKeysBuilder {
    /// One key.
    public static func buildExpression<Key: ConfigKeyRepresentable>(_ key: Key) -> [any ConfigKeyRepresentable] { [key] }

    /// A list of keys, such as an `all` list an app keeps.
    public static func buildExpression(_ keys: [any ConfigKeyRepresentable]) -> [any ConfigKeyRepresentable] { keys }

    /// The lines of a block, in order.
    public static func buildBlock(_ lines: [any ConfigKeyRepresentable]...) -> [any ConfigKeyRepresentable] {
        lines.flatMap { $0 }
    }

    /// An `if` without `else`.
    public static func buildOptional(_ keys: [any ConfigKeyRepresentable]?) -> [any ConfigKeyRepresentable] { keys ?? [] }

    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first keys: [any ConfigKeyRepresentable]) -> [any ConfigKeyRepresentable] { keys }

    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second keys: [any ConfigKeyRepresentable]) -> [any ConfigKeyRepresentable] { keys }

    /// A `for` loop.
    public static func buildArray(_ lines: [[any ConfigKeyRepresentable]]) -> [any ConfigKeyRepresentable] {
        lines.flatMap { $0 }
    }

    /// An `if #available` block.
    public static func buildLimitedAvailability(_ keys: [any ConfigKeyRepresentable]) -> [any ConfigKeyRepresentable] {
        keys
    }
}

extension RemoteConfigBuilder {
    /// Registers the keys listed in a block, one per line (`if` and `for` work too).
    ///
    /// ```swift
    /// builder.register {
    ///     Flags.newCheckout
    ///     Flags.maxRetries
    /// }
    /// ```
    public func register(@ConfigKeysBuilder _ keys: () -> [any ConfigKeyRepresentable]) -> Self { register(keys()) }
}

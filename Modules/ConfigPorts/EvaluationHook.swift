import ConfigDomain
import Foundation

/// Code that runs around each evaluation of a client that has it: OpenFeature's hooks (logging,
/// telemetry, validation, adding to the context).
///
/// A client with hooks (`RemoteConfigBuilder.hook(_:)`) runs them around every evaluation a read or `details`
/// makes, that is for the keys whose value can depend on the context (some payload's rules target them;
/// a key no payload targets is read as resolved at activation, with no hook):
/// 1. each hook's ``before(_:)``, in the order added; a context it returns is merged into the
///    evaluation's (its targeting key, when set, and its attributes win);
/// 2. the evaluation;
/// 3. each hook's ``after(_:details:)``, in reverse order;
/// 4. if a hook threw, or the evaluation ended in an error, each hook's ``error(_:error:)`` in
///    reverse order (a throwing hook makes the read return the key's default, reason `ERROR`, `GENERAL`);
/// 5. each hook's ``finally(_:details:)``, in reverse order, always.
///
/// Hooks run on the reading thread, so keep them short; a client without hooks never calls any, and
/// its reads cost what they did. A hook sees the value, variant, reason, error, metadata, layer and the
/// rule that decided; `details` adds the rules' provenance, the snapshot and its freshness. Every
/// requirement has a default that does nothing.
public protocol EvaluationHook: Sendable {
    /// Runs before the evaluation; returns a context to merge into the evaluation's, or nil.
    func before(_ hook: HookContext) throws -> EvaluationContext?
    /// Runs after a successful evaluation, with its details.
    func after<Value>(_ hook: HookContext, details: EvaluationDetails<Value>) throws
    /// Runs when a hook threw or the evaluation ended in an error.
    func error(_ hook: HookContext, error: any Error)
    /// Runs last, whatever happened, with the details the read returns.
    func finally<Value>(_ hook: HookContext, details: EvaluationDetails<Value>)
}

extension EvaluationHook {
    /// Adds nothing to the context.
    public func before(_ hook: HookContext) throws -> EvaluationContext? { nil }
    /// Does nothing.
    public func after<Value>(_ hook: HookContext, details: EvaluationDetails<Value>) throws {}
    /// Does nothing.
    public func error(_ hook: HookContext, error: any Error) {}
    /// Does nothing.
    public func finally<Value>(_ hook: HookContext, details: EvaluationDetails<Value>) {}
}

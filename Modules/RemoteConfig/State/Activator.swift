import ConfigDomain
import ConfigPorts
import Foundation

/// The one place a client's state changes: each activation resolves every key from all layers
/// and swaps the new ``ResolvedState`` into the ``StateCell``.
///
/// Activations run under one `Locked` value, so two of them never interleave, whichever caused
/// them: a provider's refresh (each ``RefreshEngine`` hands its snapshots here), an override
/// source's change, or a change of the evaluation context. Each reads the layers from the current state,
/// changes one, and publishes what changed.
final class Activator: Sendable {
    let resolver: Resolver
    let cell: StateCell
    let sink: EventSink
    /// Every new state, for `watch`.
    let states: Broadcaster<ResolvedState>
    private let state: Locked<ActivatorState>

    /// The activator's bookkeeping, under its one lock.
    private struct ActivatorState {
        var generation: UInt64
        /// Override problems already reported, as `source NUL message`.
        var reportedProblems: Set<String>
        var stopped = false
    }

    init(resolver: Resolver, cell: StateCell, sink: EventSink, states: Broadcaster<ResolvedState>) {
        self.resolver = resolver
        self.cell = cell
        self.sink = sink
        self.states = states
        // The builder reported the first problems of each override source; its stream repeats them first.
        let first = cell.load()
        let reported = Set(first.overrides.flatMap { layer in layer.snapshot.problems.map { layer.name + "\u{0}" + $0 } })
        state = Locked(ActivatorState(generation: first.generation, reportedProblems: reported))
    }

    /// Resolves a new state from the current layers after `change`, swaps it in, and reports what changed.
    @discardableResult
    func activate(cause: ConfigUpdate.Cause, change: (inout ValueSources) -> Void) -> Resolver.Output {
        let output = state.withLock { s in
            let previous = cell.load()
            var sources = previous.sources
            change(&sources)
            return resolve(sources, previous: previous, cause: cause, in: &s)
        }
        publish(output)
        return output
    }

    /// Changes the evaluation context with `update` and, if it changed, re-resolves every key from
    /// the snapshots held, under the lock (fetching nothing); returns the keys whose value changed.
    /// Nothing happens once the client has stopped.
    ///
    /// `moving` runs under the lock once the context did change, before the keys are resolved: it
    /// may replace the payloads that hold for one context only (see `RefreshEngine.move(to:in:)`).
    func changeContext(
        _ update: (inout EvaluationContext) -> Void, moving: ((inout ValueSources) -> Void)? = nil
    ) -> [String] {
        let resolved = state.withLock { s -> Resolver.Output? in
            let previous = cell.load()
            var sources = previous.sources
            update(&sources.context)
            guard !s.stopped, sources.context != previous.sources.context else { return nil }
            moving?(&sources)
            return resolve(sources, previous: previous, cause: .context, in: &s)
        }
        guard let output = resolved else { return [] }
        publish(output)
        return output.changedKeys
    }

    /// Resolves `sources` under a new generation and swaps the state in; called under the lock.
    private func resolve(
        _ sources: ValueSources, previous: ResolvedState, cause: ConfigUpdate.Cause, in s: inout ActivatorState
    ) -> Resolver.Output {
        s.generation += 1
        let output = resolver.resolve(sources: sources, previous: previous, generation: s.generation, cause: cause)
        cell.replace(with: output.state)
        return output
    }

    /// Reports a new state once: its new rejections, then the activation with the keys that changed
    /// (``ConfigEvent/activated(_:)``), and the state itself to the client's watchers.
    private func publish(_ output: Resolver.Output) {
        for rejection in output.newRejections { sink.emit(.valueRejected(rejection)) }
        if let update = output.state.update { sink.emit(.activated(update)) }
        states.send(output.state)
    }

    /// What activating `payload`, from `origin`, as `provider`'s would change, without activating it;
    /// with the generation of the state it started from, for ``activate(_:resolvedOn:cause:change:)``.
    func preview(_ payload: DecodedPayload, from origin: String, as provider: Int) -> (Resolver.Output, UInt64) {
        let previous = cell.load()
        var sources = previous.sources
        sources.activate(payload, from: origin, as: provider)
        return (resolver.resolve(sources: sources, previous: previous, generation: 0, cause: .activation), previous.generation)
    }

    /// Activates `preview`, resolved by ``preview(_:from:as:)`` from the state of generation
    /// `generation`, when that state is still the current one: the keys are not resolved a second
    /// time. After another activation in between, resolves `change` of the current state instead.
    @discardableResult
    func activate(
        _ preview: Resolver.Output, resolvedOn generation: UInt64, cause: ConfigUpdate.Cause,
        change: (inout ValueSources) -> Void
    ) -> Resolver.Output {
        let output = state.withLock { s in
            let previous = cell.load()
            guard previous.generation == generation else {
                var sources = previous.sources
                change(&sources)
                return resolve(sources, previous: previous, cause: cause, in: &s)
            }
            s.generation += 1
            let output = preview.renumbered(s.generation, cause: cause)
            cell.replace(with: output.state)
            return output
        }
        publish(output)
        return output
    }

    /// Replaces one override source's values and re-resolves if anything changed.
    func applyOverride(at position: Int, _ snapshot: OverrideSnapshot) {
        let (name, newProblems, changed) = state.withLock { s -> (String, [String], Bool) in
            let overrides = cell.load().overrides
            guard !s.stopped, overrides.indices.contains(position) else { return ("", [], false) }
            let layer = overrides[position]
            let problems = snapshot.problems.filter { s.reportedProblems.insert(layer.name + "\u{0}" + $0).inserted }
            return (layer.name, problems, layer.snapshot != snapshot)
        }
        for problem in newProblems { sink.emit(.overrideProblem(source: name, message: problem)) }
        guard changed else { return }
        activate(cause: .override(source: name)) { sources in
            sources.overrides[position] = OverrideLayer(name: name, snapshot: snapshot)
        }
    }

    /// Ignores override changes from now on.
    func stop() { state.withLock { $0.stopped = true } }
}

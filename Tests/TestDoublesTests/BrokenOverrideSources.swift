import ConfigDomain
import ConfigPorts
import Foundation

@testable import TestDoubles

// Override sources for the contract tests: a correct immutable one (lines of KEY=VALUE text) and
// deliberately broken ones, each breaking one rule of the override-source contract.

/// The contract for an InMemoryOverrideSource-backed source made by `wrap`.
func overrideContract<Source: OverrideSource>(
    _ subject: String, timeLimit: TimeInterval = 30, cancellationBound: TimeInterval = 2,
    wrap: @escaping @Sendable (InMemoryOverrideSource) -> Source,
    inner: @escaping @Sendable (Source) -> InMemoryOverrideSource
) -> OverrideSourceContract<Source> {
    OverrideSourceContract<Source>(
        subject: subject,
        makeSource: { values in wrap(InMemoryOverrideSource(values: values.mapValues { .text($0) })) },
        update: { source, values in
            let memory = inner(source)
            for key in OverrideSourceContract<Source>.keys.map(\.name) + [OverrideSourceContract<Source>.unrequestedKey]
            where values[key] == nil {
                memory.remove(key)
            }
            for (key, text) in values.sorted(by: { $0.key < $1.key }) { memory.set(key, .text(text)) }
        },
        makeSourceWithMalformedEntry: { values in
            let memory = InMemoryOverrideSource(values: values.mapValues { .text($0) })
            memory.report(problem: "line 3: expected KEY=VALUE")
            return wrap(memory)
        },
        timeLimit: timeLimit, cancellationBound: cancellationBound)
}

/// A source read from `KEY=VALUE` lines, fixed once made (like a `.env` file read at launch).
///
/// With `reportsProblems` it reports a malformed line and keeps the rest (correct); without, its
/// parser throws on the malformed line and the source answers nothing (broken: throws instead of reporting).
struct LinesSource: OverrideSource {
    struct MalformedLine: Error { let number: Int }

    let lines: [String]
    let reportsProblems: Bool
    var name: String { "lines" }

    init(values: [String: String], extraLines: [String] = [], reportsProblems: Bool) {
        lines = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + extraLines
        self.reportsProblems = reportsProblems
    }

    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        if reportsProblems { return parse(keys, strict: false) }
        do {
            return try parseStrictly(keys)
        } catch {
            return .empty  // Broken: the whole source is lost, nothing is reported.
        }
    }

    private func parseStrictly(_ keys: [KeyDescriptor]) throws -> OverrideSnapshot {
        if let bad = lines.firstIndex(where: { !$0.contains("=") }) { throw MalformedLine(number: bad + 1) }
        return parse(keys, strict: true)
    }

    private func parse(_ keys: [KeyDescriptor], strict: Bool) -> OverrideSnapshot {
        let wanted = Set(keys.map(\.name))
        var snapshot = OverrideSnapshot()
        for (index, line) in lines.enumerated() {
            guard let equals = line.firstIndex(of: "=") else {
                snapshot.problems.append("line \(index + 1): expected KEY=VALUE, found \"\(line)\"")
                continue
            }
            let key = String(line[..<equals])
            guard wanted.contains(key) else { continue }
            snapshot.values[key] = OverrideValue(
                .text(String(line[line.index(after: equals)...])), origin: "lines:\(index + 1)")
        }
        return snapshot
    }
}

/// Yields an empty state first instead of the current one.
struct EmptyFirstSource: OverrideSource {
    let inner: InMemoryOverrideSource
    var name: String { inner.name }
    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { inner.overrides(for: keys) }
    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            continuation.yield(.empty)
            let task = Task {
                var isFirst = true
                for await snapshot in inner.changes(for: keys) {
                    if isFirst {
                        isFirst = false
                        continue
                    }
                    continuation.yield(snapshot)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Yields nothing until the first change.
struct SilentUntilChangeSource: OverrideSource {
    let inner: InMemoryOverrideSource
    var name: String { inner.name }
    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { inner.overrides(for: keys) }
    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                var isFirst = true
                for await snapshot in inner.changes(for: keys) {
                    if isFirst {
                        isFirst = false
                        continue
                    }
                    continuation.yield(snapshot)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Yields the current state once and never again (but stays open).
struct NoChangesSource: OverrideSource {
    let inner: InMemoryOverrideSource
    var name: String { inner.name }
    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { inner.overrides(for: keys) }
    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                var iterator = inner.changes(for: keys).makeAsyncIterator()
                if let first = await iterator.next() { continuation.yield(first) }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Returns every value it holds, whatever keys were asked for.
struct LeaksKeysSource: OverrideSource {
    let inner: InMemoryOverrideSource
    var name: String { inner.name }
    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        let all = OverrideSourceContract<Self>.keys.map(\.name) + [OverrideSourceContract<Self>.unrequestedKey]
        return inner.overrides(
            for: all.map { KeyDescriptor(name: $0, typeName: "String", defaultValue: nil) })
    }
    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> { inner.changes(for: keys) }
}

/// An unfolding stream whose wait for the next change ignores cancellation, so it never ends.
final class NeverFinishingSource: OverrideSource {
    private let inner: InMemoryOverrideSource
    private let parked = Locked<[CheckedContinuation<OverrideSnapshot?, Never>]>([])
    var name: String { inner.name }

    init(inner: InMemoryOverrideSource) { self.inner = inner }

    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { inner.overrides(for: keys) }

    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        let sentFirst = Flag()
        return AsyncStream(unfolding: { [inner, parked] in
            if !sentFirst.isSet {
                sentFirst.set()
                return inner.overrides(for: keys)
            }
            // Broken: waits for a change with no cancellation handler.
            return await withCheckedContinuation { continuation in parked.withLock { $0.append(continuation) } }
        })
    }

    /// Ends every parked wait, so no task outlives the test.
    func releaseAll() {
        let waiting = parked.withLock { parked in
            defer { parked.removeAll() }
            return parked
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }
}

/// Keeps one subscriber: a new call to `changes(for:)` finishes the previous subscriber's stream.
final class LastSubscriberOnlySource: OverrideSource {
    let inner: InMemoryOverrideSource
    private let subscriber = Locked<AsyncStream<OverrideSnapshot>.Continuation?>(nil)
    private let relay = Locked<Task<Void, Never>?>(nil)
    var name: String { inner.name }

    init(inner: InMemoryOverrideSource) { self.inner = inner }

    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { inner.overrides(for: keys) }

    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        let (stream, continuation) = AsyncStream<OverrideSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        subscriber.withLock { $0?.finish() }  // Broken: drops the previous subscriber.
        subscriber.withLock { $0 = continuation }
        let task = Task { [inner, subscriber] in
            for await snapshot in inner.changes(for: keys) { subscriber.current?.yield(snapshot) }
        }
        relay.withLock { previous in
            previous?.cancel()
            previous = task
        }
        return stream
    }

    deinit { relay.withLock { $0?.cancel() } }
}

/// Yields an empty placeholder (its state "before loading") first, then the current state and each change.
struct PlaceholderFirstSource: OverrideSource {
    let inner: InMemoryOverrideSource
    var name: String { inner.name }
    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { inner.overrides(for: keys) }
    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        let upstream = inner.changes(for: keys)
        return AsyncStream { continuation in
            continuation.yield(.empty)  // Broken: not the current state.
            let task = Task {
                for await snapshot in upstream { continuation.yield(snapshot) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A live source that relies on the protocol's default `changes(for:)`, which yields once and
/// finishes: meant for sources that never change, so this one's changes are never seen.
struct DefaultChangesSource: OverrideSource {
    let inner: InMemoryOverrideSource
    var name: String { inner.name }
    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { inner.overrides(for: keys) }
}

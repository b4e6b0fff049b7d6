import ConfigDomain
import ConfigPorts
import Foundation

/// The contract every ``OverrideSource`` must pass, as a suite you run against your own adapter.
///
/// The suite asks for ``keys``; your factory gets the values to hold as text by key name (map
/// names as your source does: `contract_flag` may become `MYAPP_CONTRACT_FLAG`). An override
/// matches when it is `.text` of exactly that text, or a `.value` whose JSON text (or string) is it.
///
/// ```swift
/// let report = await OverrideSourceContract<InMemoryOverrideSource>(
///     subject: "InMemoryOverrideSource",
///     makeSource: { values in InMemoryOverrideSource(values: values.mapValues { .text($0) }) },
///     update: { source, values in
///         source.removeAll()
///         for (key, text) in values { source.set(key, .text(text)) }
///     },
///     makeSourceWithMalformedEntry: { values in
///         let source = InMemoryOverrideSource(values: values.mapValues { .text($0) })
///         source.report(problem: "line 3: expected KEY=VALUE")
///         return source
///     }
/// ).run()
/// ```
public struct OverrideSourceContract<Source: OverrideSource>: Sendable {
    /// The suite's checks, by stable name.
    public enum Check: String, Sendable, CaseIterable {
        /// `overrides(for:)` returns the held values for the requested keys only, with origins.
        case valuesReturned = "overrides.values-are-returned-for-requested-keys"
        /// `changes(for:)` yields the current state first, at once.
        case currentFirst = "overrides.changes-start-with-the-current-state"
        /// After the current state, `changes(for:)` yields each new state.
        case eachChange = "overrides.changes-yield-each-change"
        /// Several subscribers each get the current state, then the change.
        case manySubscribers = "overrides.changes-serve-many-subscribers"
        /// Cancelling the consuming task ends the sequence within the bound.
        case cancellationEnds = "overrides.cancellation-ends-the-sequence"
        /// A malformed entry is reported in `problems` while the well-formed values stay.
        case problemsReported = "overrides.problems-are-reported-not-thrown"
    }

    /// The keys the suite asks for: `contract_flag` (Bool), `contract_count` (Int), `contract_label` (String).
    public static var keys: [KeyDescriptor] {
        [
            KeyDescriptor(name: "contract_flag", typeName: "Bool", defaultValue: .bool(false)),
            KeyDescriptor(name: "contract_count", typeName: "Int", defaultValue: .int(0)),
            KeyDescriptor(name: "contract_label", typeName: "String", defaultValue: .string("")),
        ]
    }

    /// A key the source holds but the suite never asks for; it must not be returned.
    public static var unrequestedKey: String { "contract_unrequested" }

    /// The values every check starts with: flag `true`, count `42`, and the unrequested key.
    public static var initialValues: [String: String] {
        ["contract_flag": "true", "contract_count": "42", unrequestedKey: "ignored"]
    }
    /// The first change: flag `false`, label `hello` added.
    public static var changedValues: [String: String] {
        ["contract_flag": "false", "contract_count": "42", "contract_label": "hello", unrequestedKey: "ignored"]
    }
    /// The second change: flag removed, count `7`.
    public static var reducedValues: [String: String] {
        ["contract_count": "7", "contract_label": "hello", unrequestedKey: "changed"]
    }

    /// The adapter's name in the report.
    public var subject: String
    /// What the adapter declares it cannot do; each skips the checks that need it.
    public var capabilities: Set<ContractCapability>
    /// Makes a source holding these values (text by key name). Called once per check.
    public var makeSource: @Sendable (_ values: [String: String]) async throws -> Source
    /// Replaces everything the live source holds with these values (absent keys are removed).
    public var update: (@Sendable (Source, _ values: [String: String]) async throws -> Void)?
    /// Makes a source holding these values plus one entry it cannot read (a malformed line, an unknown argument).
    public var makeSourceWithMalformedEntry: (@Sendable (_ values: [String: String]) async throws -> Source)?
    /// Called with each source made, after its check.
    public var discard: (@Sendable (Source) async -> Void)?
    /// How long one check may take before the watchdog fails it (default 30 s; never reached by a working adapter).
    public var timeLimit: TimeInterval
    /// How soon cancelling the consumer must end the sequence (default 2 s).
    public var cancellationBound: TimeInterval
    /// How many subscribers the many-subscribers check opens (default 4).
    public var subscribers: Int

    /// Configures the suite for one adapter.
    public init(
        subject: String,
        capabilities: Set<ContractCapability> = [],
        makeSource: @escaping @Sendable (_ values: [String: String]) async throws -> Source,
        update: (@Sendable (Source, _ values: [String: String]) async throws -> Void)? = nil,
        makeSourceWithMalformedEntry: (@Sendable (_ values: [String: String]) async throws -> Source)? = nil,
        discard: (@Sendable (Source) async -> Void)? = nil,
        timeLimit: TimeInterval = 30,
        cancellationBound: TimeInterval = 2,
        subscribers: Int = 4
    ) {
        self.subject = subject
        self.capabilities = capabilities
        self.makeSource = makeSource
        self.update = update
        self.makeSourceWithMalformedEntry = makeSourceWithMalformedEntry
        self.discard = discard
        self.timeLimit = timeLimit
        self.cancellationBound = cancellationBound
        self.subscribers = subscribers
    }

    /// Runs every check against the adapter and reports each outcome. Never throws, never traps.
    public func run() async -> ContractReport {
        await CheckRunner.run(
            suite: "OverrideSourceContract", subject: subject, capabilities: capabilities, timeLimit: timeLimit,
            skips: skips
        ) { (check: Check, progress) throws(ContractFailure) in
            progress.at("making the source")
            let source: Source
            if check == .problemsReported {
                guard let makeSourceWithMalformedEntry else {
                    throw missingHook("makeSourceWithMalformedEntry", orDeclare: .noMalformedInput)
                }
                source = try await hook("makeSourceWithMalformedEntry") {
                    try await makeSourceWithMalformedEntry(Self.initialValues)
                }
            } else {
                source = try await hook("makeSource") { try await makeSource(Self.initialValues) }
            }
            try await CheckRunner.using(source, progress, discard: discard) { source throws(ContractFailure) in
                try await perform(check, source, progress)
            }
        }
    }

    private func skips(_ check: Check) -> [ContractCapability] {
        switch check {
        case .eachChange: [.immutable]
        case .problemsReported: [.noMalformedInput]
        default: []
        }
    }

    private var isMutable: Bool { !capabilities.contains(.immutable) }

    private func perform(_ check: Check, _ source: Source, _ progress: CheckProgress) async throws(ContractFailure) {
        switch check {
        case .valuesReturned: try checkValuesReturned(source, progress)
        case .currentFirst: try await checkCurrentFirst(source, progress)
        case .eachChange: try await checkEachChange(source, progress)
        case .manySubscribers: try await checkManySubscribers(source, progress)
        case .cancellationEnds: try await checkCancellationEnds(source, progress)
        case .problemsReported: try checkProblemsReported(source, progress)
        }
    }

    // MARK: - Checks

    private func checkValuesReturned(_ source: Source, _ progress: CheckProgress) throws(ContractFailure) {
        try require(!source.name.isEmpty, "the source's name is empty; name it for provenance (for example environment)")
        progress.at("reading overrides(for:)")
        let snapshot = source.overrides(for: Self.keys)
        if let mismatch = Self.mismatch(snapshot, Self.initialValues) {
            throw ContractFailure("overrides(for:) \(mismatch)")
        }
        // Problems are not checked here: a source may rightly report a name it holds that matches
        // no requested key (the unrequested key), as a hint for a typo.
        progress.at("reading overrides(for: [])")
        let none = source.overrides(for: [])
        try require(
            none.values.isEmpty,
            "overrides(for: []) returned values for \(none.values.keys.sorted()); answer only for the keys asked")
    }

    private func checkCurrentFirst(_ source: Source, _ progress: CheckProgress) async throws(ContractFailure) {
        var iterator = source.changes(for: Self.keys).makeAsyncIterator()
        progress.at("waiting for the stream's first element, which must be the current state, at once")
        try await Self.expectCurrentState(from: &iterator, "the subscriber")
    }

    private func checkEachChange(_ source: Source, _ progress: CheckProgress) async throws(ContractFailure) {
        guard let update else { throw missingHook("update", orDeclare: .immutable) }
        var iterator = source.changes(for: Self.keys).makeAsyncIterator()
        progress.at("waiting for the stream's first element")
        guard await iterator.next() != nil else {
            throw ContractFailure("changes(for:) finished without yielding anything")
        }
        for (step, values) in [Self.changedValues, Self.reducedValues].enumerated() {
            progress.at("updating the source (change \(step + 1))")
            try await hook("update") { try await update(source, values) }
            progress.at("waiting for the stream to yield change \(step + 1)")
            try await Self.awaitState(values, from: &iterator, "change \(step + 1)")
        }
    }

    private func checkManySubscribers(_ source: Source, _ progress: CheckProgress) async throws(ContractFailure) {
        let count = max(2, subscribers)
        var iterators = (0..<count).map { _ in source.changes(for: Self.keys).makeAsyncIterator() }
        for index in iterators.indices {
            progress.at("waiting for subscriber \(index + 1) of \(count) to get the current state")
            try await Self.expectCurrentState(from: &iterators[index], "subscriber \(index + 1) of \(count)")
        }
        guard isMutable, let update else { return }
        progress.at("updating the source")
        try await hook("update") { try await update(source, Self.changedValues) }
        for index in iterators.indices {
            progress.at("waiting for subscriber \(index + 1) of \(count) to get the change")
            try await Self.awaitState(
                Self.changedValues, from: &iterators[index], "the change, for subscriber \(index + 1) of \(count)")
        }
    }

    private func checkCancellationEnds(_ source: Source, _ progress: CheckProgress) async throws(ContractFailure) {
        try await expectCancellationEnds(
            { source.changes(for: Self.keys) }, within: cancellationBound, progress,
            advice: "finish when the consumer cancels (AsyncStream(bufferingPolicy:) does; a stream made with "
                + "unfolding: must stop waiting when its task is cancelled)")
        if isMutable, let update {
            progress.at("updating the source after its subscriber left")
            try await hook("update") { try await update(source, Self.changedValues) }
        }
    }

    private func checkProblemsReported(_ source: Source, _ progress: CheckProgress) throws(ContractFailure) {
        progress.at("reading overrides(for:) from a source holding a malformed entry")
        let snapshot = source.overrides(for: Self.keys)
        try require(
            !snapshot.problems.isEmpty,
            "a source holding a malformed entry reported no problem; put a message a person can act on in problems "
                + "(never throw or drop the source)")
        if let mismatch = Self.mismatch(snapshot, Self.initialValues) {
            throw ContractFailure(
                "with a malformed entry present, the well-formed values were not all returned: it \(mismatch); "
                    + "report the bad entry and keep the rest")
        }
    }
}

// MARK: - Helpers

extension OverrideSourceContract {
    /// Reads a subscriber's first element, which must be the current state.
    static func expectCurrentState(
        from iterator: inout AsyncStream<OverrideSnapshot>.Iterator, _ subscriber: String
    ) async throws(ContractFailure) {
        guard let first = await iterator.next() else {
            throw ContractFailure(
                "for \(subscriber), changes(for:) finished without yielding anything; yield the current state first")
        }
        if let mismatch = mismatch(first, initialValues) {
            throw ContractFailure(
                "the first element \(subscriber) got from changes(for:) is not the current state: it \(mismatch); "
                    + "yield the current state first, so a subscriber never misses it")
        }
    }

    /// Reads elements until one matches `values` (a source may yield intermediate states).
    static func awaitState(
        _ values: [String: String], from iterator: inout AsyncStream<OverrideSnapshot>.Iterator, _ what: String
    ) async throws(ContractFailure) {
        var seen = 0
        while seen < 16 {
            guard let next = await iterator.next() else {
                throw ContractFailure(
                    "changes(for:) finished before yielding \(what); keep the stream open until the consumer cancels")
            }
            seen += 1
            if mismatch(next, values) == nil { return }
        }
        throw ContractFailure("changes(for:) yielded \(seen) states, none of them \(what)")
    }

    /// Why `snapshot` does not hold exactly `values` for the requested keys, or `nil` when it does.
    static func mismatch(_ snapshot: OverrideSnapshot, _ values: [String: String]) -> String? {
        let requested = Set(keys.map(\.name))
        if snapshot.values[unrequestedKey] != nil {
            return "returned a value for \(unrequestedKey), a key not in the requested descriptors; answer only "
                + "for the keys asked"
        }
        let expected = values.filter { requested.contains($0.key) }
        for (key, text) in expected.sorted(by: { $0.key < $1.key }) {
            guard let override = snapshot.values[key] else {
                return "has no value for \(key), expected \"\(text)\" (got \(describe(snapshot)))"
            }
            guard matches(override.content, text) else {
                return "has \(describe(override.content)) for \(key), expected \"\(text)\""
            }
            if override.origin.isEmpty { return "has an empty origin for \(key); say where the value came from" }
        }
        let extra = Set(snapshot.values.keys).subtracting(expected.keys)
        if !extra.isEmpty { return "has values for \(extra.sorted()), which the source does not hold" }
        return nil
    }

    /// Whether `content` is `text`: the same text, or a value whose JSON text (or string) is `text`.
    static func matches(_ content: OverrideValue.Content, _ text: String) -> Bool {
        switch content {
        case .text(let held): held == text
        case .value(let value): value.jsonText() == text || value == .string(text)
        }
    }

    /// `text("true")` or `value(true)`.
    static func describe(_ content: OverrideValue.Content) -> String {
        switch content {
        case .text(let text): "text(\"\(text)\")"
        case .value(let value): "value(\(value.jsonText()))"
        }
    }

    /// `{contract_count: text("42"), …}`.
    static func describe(_ snapshot: OverrideSnapshot) -> String {
        let values = snapshot.values.sorted { $0.key < $1.key }.map { "\($0.key): \(describe($0.value.content))" }
        return "{" + values.joined(separator: ", ") + "}"
    }
}

import ConfigDomain
import ConfigPorts
import Foundation

/// The checks of ``FetcherContract``, one function each, in the order the suite runs them.
extension FetcherContract {
    func checkFirstFetch(_ session: FetcherContractSession) async throws(ContractFailure) {
        let payload = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional first fetch")
        if hasValidators {
            try require(
                !payload.validators.isEmpty,
                "the first fetch returned no validators, so no later fetch can be conditional; return an ETag or "
                    + "Last-Modified, or declare .noValidators")
        }
        try require(
            !payload.source.isEmpty,
            "the payload's source is empty; name where it came from (a URL, a path) for provenance")
    }

    func checkUnconditionalFetch(_ session: FetcherContractSession) async throws(ContractFailure) {
        _ = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        let again = await session.fetch(.none, "a second unconditional fetch")
        if case .success(.notModified) = again {
            throw ContractFailure(
                "a second unconditional fetch answered notModified: decide from the request's validators only, never "
                    + "from what was answered before (a new client or an emptied cache sends none)")
        }
        _ = try session.expectPayload(Self.firstPayload, in: again, "a second unconditional fetch")
    }

    func checkUnchanged(_ session: FetcherContractSession) async throws(ContractFailure) {
        let first = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        let context = "a fetch carrying the validators just returned (\(first.validators)) with nothing changed"
        let result = await session.fetch(first.validators, context)
        guard hasValidators else {
            _ = try session.expectPayload(
                Self.firstPayload, in: result, context + " (the adapter declared .noValidators)")
            return
        }
        switch result {
        case .success(.notModified): return
        case .success(.modified(let payload)):
            throw ContractFailure(
                "\(context) answered modified (\(payload.bytes.count) bytes): the fetcher ignores validators, so every "
                    + "refresh downloads and rewrites the whole payload; answer notModified when they match")
        case .failure(let error):
            throw ContractFailure("\(context) failed: \(describe(error))")
        }
    }

    func checkUnknownValidators(_ session: FetcherContractSession) async throws(ContractFailure) {
        let unknown = Validators(etag: "\"contract-never-served\"", lastModified: "Thu, 01 Jan 1970 00:00:00 GMT")
        _ = try await session.expectPayload(
            Self.firstPayload, for: unknown, "a fetch carrying validators of a version the backend never served")
    }

    func checkChange(_ session: FetcherContractSession) async throws(ContractFailure) {
        let first = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        session.progress.at("serving secondPayload")
        try await hook("serve") { try await serve(Self.secondPayload) }
        let changed = try await session.expectPayload(
            Self.secondPayload, for: first.validators, "after the backend changed, a fetch with the old validators")
        guard hasValidators else { return }
        try require(
            !changed.validators.isEmpty && changed.validators != first.validators,
            "the changed payload came with validators \(changed.validators), the same as the old one's "
                + "(\(first.validators)); a client holding them could not tell versions apart")
        let next = await session.fetch(changed.validators, "a fetch with the new validators")
        guard case .success(.notModified) = next else {
            throw ContractFailure(
                "a fetch with the new validators (\(changed.validators)) and nothing changed answered "
                    + "\(describe(next)) instead of notModified")
        }
    }

    func checkFailure(_ session: FetcherContractSession, fault: Fault) async throws(ContractFailure) {
        guard let setFault else { throw missingHook("setFault", orDeclare: .noFaultInjection) }
        let kind = "\(fault)"
        session.progress.at("injecting a \(kind) fault")
        try await hook("setFault") { try await setFault(fault) }
        let result = await session.fetch(.none, "a fetch while the backend fails (\(kind))")
        guard case .failure(let error) = result else {
            throw ContractFailure(
                "a fetch while the backend had a \(kind) fault answered \(describe(result)); it must throw a FetchError "
                    + "(check the setFault hook really breaks the backend)")
        }
        try require(error.kind != .cancelled, "a \(kind) backend failure was reported as \(describe(error)); say what failed")
        try require(
            !error.message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            "a \(kind) backend failure has an empty message; say what happened and what to do")
        let advice =
            fault == .temporary
            ? "would give up on a failure that may pass; advise .backoff or .after(date)"
            : "would keep retrying something that cannot succeed; advise .doNotRetry"
        try require(
            error.isRetryable == (fault == .temporary),
            "a \(kind) backend failure came back as \(describe(error)): the scheduler \(advice)")
        session.progress.at("clearing the fault")
        try await hook("setFault") { try await setFault(nil) }
        _ = try await session.expectPayload(Self.firstPayload, for: .none, "a fetch after the \(kind) fault cleared")
    }

    func checkCancelledBeforeStart(_ session: FetcherContractSession) async throws(ContractFailure) {
        guard let result = await session.fetchInCancelledTask(within: cancellationBound) else {
            throw ContractFailure("a fetch started in an already-cancelled task did not end within \(format(cancellationBound))")
        }
        try expectCancelled(result, "a fetch in a cancelled task", orPayload: true)
    }

    func checkCancelledInFlight(_ session: FetcherContractSession) async throws(ContractFailure) {
        guard let hold else { throw missingHook("hold", orDeclare: .cannotHold) }
        session.progress.at("asking the backend to hold the next request")
        let gate = try await hook("hold") { try await hold() }
        let task = Task { await session.fetch(.none, "a fetch cancelled while the backend held it") }
        session.progress.at("waiting for the fetch to reach the backend (ContractHold.waitUntilReached)")
        await gate.waitUntilReached()
        task.cancel()
        session.progress.at("waiting for the cancelled fetch to end")
        let result = await Watchdog.run(limit: cancellationBound) { await task.value }
        await gate.release()
        guard let result else {
            throw ContractFailure(
                "the fetch did not end within \(format(cancellationBound)) of its task being cancelled while the "
                    + "backend held the request; pass cancellation on (URLSession does; otherwise use "
                    + "withTaskCancellationHandler) and throw FetchError.cancelled")
        }
        try expectCancelled(result, "the fetch cancelled in flight, which the backend never answered,", orPayload: false)
    }

    /// Fails unless `result` is `FetchError.cancelled` or, when `orPayload`, the served payload.
    func expectCancelled(
        _ result: Result<FetchResult, FetchError>, _ what: String, orPayload: Bool
    ) throws(ContractFailure) {
        switch result {
        case .failure(let error) where error.kind == .cancelled: return
        case .success(.modified(let payload)) where orPayload && payload.bytes == Self.firstPayload: return
        case .failure(let error):
            throw ContractFailure(
                "\(what) failed with \(describe(error)) instead of FetchError.cancelled; misreported cancellation makes "
                    + "the scheduler back off and retry a refresh nobody wants")
        case .success:
            throw ContractFailure(
                "\(what) answered \(describe(result)) instead of throwing FetchError.cancelled: it swallowed the "
                    + "cancellation")
        }
    }

    func checkConcurrentFetches(_ session: FetcherContractSession) async throws(ContractFailure) {
        let count = max(2, concurrentFetches)
        session.progress.at("running \(count) fetches at once")
        let results = await withTaskGroup(of: Result<FetchResult, FetchError>.self) { group in
            for _ in 0..<count { group.addTask { await session.fetch(.none, "one of \(count) concurrent fetches") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var validators: Set<Validators> = []
        for result in results {
            guard case .success(.modified(let payload)) = result, payload.bytes == Self.firstPayload else {
                throw ContractFailure(
                    "one of \(count) concurrent unconditional fetches did not return the served payload: \(describe(result))")
            }
            validators.insert(payload.validators)
        }
        try require(
            validators.count == 1,
            "\(count) concurrent fetches of one unchanged payload disagree on its validators: \(validators)")
    }

    func checkNoRetries(_ session: FetcherContractSession) async throws(ContractFailure) {
        guard let requestCount else { throw missingHook("requestCount", orDeclare: .uncountedRequests) }
        session.progress.at("counting the requests of one successful fetch")
        var before = await requestCount()
        _ = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        var made = await requestCount() - before
        try require(
            made == 1,
            "one successful fetch made \(made) requests to the backend; expected exactly 1 (check the requestCount "
                + "hook counts every request the fetcher makes)")
        for fault in injectableFaults {
            session.progress.at("counting the requests of one failing fetch (\(fault))")
            try await hook("setFault") { try await setFault?(fault) }
            before = await requestCount()
            _ = await session.fetch(.none, "a fetch while the backend fails")
            made = await requestCount() - before
            try require(
                made <= 1,
                "one fetch against a failing backend (\(fault)) made \(made) requests: the fetcher retries on its "
                    + "own. Throw a FetchError with retry advice instead; retrying (with backoff, jitter and "
                    + "Retry-After) is the scheduler's job")
        }
    }

    func checkNoSecrets(_ session: FetcherContractSession) async throws(ContractFailure) {
        let secrets = secrets.filter { !$0.isEmpty }
        guard !secrets.isEmpty else {
            throw ContractFailure(
                "no secrets were listed; list the tokens or keys the fetcher is configured with in `secrets`, or declare .noSecrets"
            )
        }
        for fault in injectableFaults {
            session.progress.at("provoking a \(fault) error")
            try await hook("setFault") { try await setFault?(fault) }
            _ = await session.fetch(.none, "a fetch while the backend fails")
        }
        if !injectableFaults.isEmpty { try await hook("setFault") { try await setFault?(nil) } }
        _ = await session.fetchInCancelledTask(within: cancellationBound)
        // Everything the run showed: each error's texts, each payload's source.
        let shown = session.seen.current.flatMap { result -> [(place: String, text: String)] in
            switch result {
            case .failure(let error): [error.description, error.message, "\(error.kind)"].map { ("an error", $0) }
            case .success(.modified(let payload)): [("a payload's source", payload.source)]
            case .success(.notModified): []
            }
        }
        for (index, secret) in secrets.enumerated() {
            if let leak = shown.first(where: { $0.text.contains(secret) }) {
                throw ContractFailure(
                    "secret #\(index + 1) of `secrets` (\(secret.count) characters) appears in \(leak.place): "
                        + "\(Rejection.redact(leak.text, secret: secret)); errors and sources are shown in logs, so "
                        + "redact secrets before building them")
            }
        }
    }
}

import ConfigDomain
import ConfigPorts
import Foundation

/// One provider's payloads in its cache, and how they come back in: what is read at launch (the
/// active slot, the pending one under next-launch activation, the last good values), written after a
/// refresh, and read when the context moves a remotely evaluated provider to another user's slot.
///
/// Every payload read back passes through the provider's ``PayloadIntake``, as a fetched one does.
/// Reads report what they find to `sink`; writes return their error, which the engine records.
struct ProviderStore: Sendable {
    let cache: (any SnapshotCache)?
    let intake: PayloadIntake
    let settings: ClientSettings
    let sink: EventSink

    init(settings: ClientSettings, sink: EventSink) {
        self.cache = settings.cache
        self.intake = PayloadIntake(settings)
        self.settings = settings
        self.sink = sink
    }

    // MARK: At launch

    /// The payload cached under `name` at launch, decoded (promoting a pending one first under
    /// next-launch activation), with its metadata and the cache's answer in `status`.
    func loadAtLaunch(_ name: String, into status: inout EngineStatus) -> DecodedPayload? {
        guard let cache else { return nil }
        status.cache = .empty
        if settings.activation == .nextLaunch { promotePending(name, in: cache) }
        switch cache.load(name, slot: .active) {
        case .hit(let cached):
            var metadata = cached.metadata
            switch intake.admit(cached.payload, metadata: &metadata, replacing: nil) {
            case .success(let payload):
                status.cache = .inSync
                status.active = metadata
                sink.emit(.cacheLoaded(name: name, fetchedAt: metadata.fetchedAt, freshness: settings.freshness(of: metadata)))
                return payload
            case .failure(let refusal):
                let error = refusal.cacheError(name: name)
                status.cache = .unreadable(error)
                sink.emit(.cacheUnreadable(error))
            }
        case .miss:
            sink.emit(.cacheMiss(name: name))
        case .unreadable(let error):
            status.cache = .unreadable(error)
            sink.emit(.cacheUnreadable(error))
        }
        return nil
    }

    /// Makes the pending snapshot active, once the verifier (if any) accepts it in place of the active
    /// one; a refused pending snapshot is discarded and reported, and the active one stays.
    private func promotePending(_ name: String, in cache: any SnapshotCache) {
        if intake.verifier != nil {
            switch cache.load(name, slot: .pending) {
            case .miss:
                return
            case .unreadable(let error):
                sink.emit(.cacheUnreadable(error))
                return
            case .hit(let pending):
                // The active snapshot records what was accepted before only if it verifies itself.
                let active = cache.load(name, slot: .active).snapshot.flatMap {
                    intake.verifies($0, replacing: nil) == nil ? $0.metadata : nil
                }
                if let refusal = intake.verifies(pending, replacing: active) {
                    discardPending(name, in: cache, refusal: refusal)
                    return
                }
            }
        }
        do throws(CacheError) {
            _ = try cache.promotePending(name)
        } catch {
            sink.emit(.cacheUnreadable(error))
        }
    }

    /// Removes the pending snapshot of `name` that the verifier refused, and reports both.
    private func discardPending(_ name: String, in cache: any SnapshotCache, refusal: SignatureError) {
        var message =
            "the pending payload for \"\(name)\" was not activated: \(refusal.message); it was discarded, and the "
            + "active configuration stays until a refresh brings a payload that verifies"
        do throws(CacheError) {
            try cache.discardPending(name)
        } catch {
            message += " (discarding it failed: \(error.message))"
        }
        sink.emit(.cacheUnreadable(CacheError(.untrusted(refusal), message: message)))
    }

    /// Reads the last good values the cache kept under `name` (see ``LastGoodValues``); nil without a
    /// cache, and when payloads are verified: the record is the client's own file, which no signature covers.
    func lastGoodReader(_ name: String) -> (@Sendable () -> LastGoodValues?)? {
        guard let cache, intake.verifier == nil else { return nil }
        let sink = self.sink
        return {
            switch cache.load(name, slot: .lastGood) {
            case .hit(let cached):
                guard let values = LastGoodValues(bytes: cached.payload) else {
                    sink.emit(
                        .cacheUnreadable(
                            CacheError(
                                .corrupt(.badMetadata),
                                message: "the last good values kept for \"\(name)\" are not a record of values; "
                                    + "they are ignored and rewritten at the next refresh")))
                    return nil
                }
                return values
            case .miss:
                return nil
            case .unreadable(let error):
                sink.emit(.cacheUnreadable(error))
                return nil
            }
        }
    }

    // MARK: After a refresh

    /// Writes `snapshot` to the `slot` of `name`; nil when it was written (or there is no cache).
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async -> CacheError? {
        guard let cache else { return nil }
        do throws(CacheError) {
            try await cache.store(snapshot, as: name, slot: slot)
            return nil
        } catch {
            return error
        }
    }

    /// Renews the metadata of the payload stored under `name`; nil when renewed (or there is no cache).
    func renew(_ metadata: SnapshotMetadata, for name: String) async -> CacheError? {
        guard let cache else { return nil }
        do throws(CacheError) {
            try await cache.renew(metadata, for: name)
            return nil
        } catch {
            return error
        }
    }

    /// Makes the payload stored as pending under `name` the active one; nil when done.
    func promoteStoredPending(_ name: String) -> CacheError? {
        guard let cache else { return nil }
        do throws(CacheError) {
            _ = try cache.promotePending(name)
            return nil
        } catch {
            return error
        }
    }

    /// Whether the cache holds no last good values under `name`.
    func holdsNoLastGood(_ name: String) -> Bool { cache?.load(name, slot: .lastGood).snapshot == nil }

    // MARK: Another user's slot

    /// The payload cached under `name` (another user's slot of a remotely evaluated provider),
    /// decoded, with its metadata; nil when there is none, or none the intake admits (reported).
    func loadSlot(_ name: String) -> (payload: DecodedPayload, metadata: SnapshotMetadata)? {
        guard let cache else { return nil }
        switch cache.load(name, slot: .active) {
        case .hit(let cached):
            var metadata = cached.metadata
            switch intake.admit(cached.payload, metadata: &metadata, replacing: nil) {
            case .success(let payload): return (payload, metadata)
            case .failure(let refusal):
                sink.emit(.cacheUnreadable(refusal.cacheError(name: name)))
                return nil
            }
        case .miss:
            return nil
        case .unreadable(let error):
            sink.emit(.cacheUnreadable(error))
            return nil
        }
    }
}

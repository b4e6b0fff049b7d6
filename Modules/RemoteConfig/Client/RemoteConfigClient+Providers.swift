import ConfigDomain
import ConfigPorts
import Foundation

extension RemoteConfigClient {
    /// Refreshes every provider at once (with `onlyUnlessFresh`, those whose snapshot is not fresh)
    /// and combines their results; each provider activates its own snapshot when its fetch is done.
    ///
    /// Each provider's flight is joined or started here, when the caller calls: a caller that
    /// arrives while a fetch runs shares it, however late the scheduler runs what follows.
    func refreshEach(force: Bool, onlyUnlessFresh: Bool) async -> Result<RefreshResult, ConfigError> {
        let flights = engines.filter { !onlyUnlessFresh || $0.freshness() != .fresh }.map { $0.join(force: force) }
        guard !flights.isEmpty else { return .success(.unchanged) }
        var results: [Result<RefreshResult, ConfigError>] = []
        for flight in flights { results.append(await flight.value) }
        return RefreshResult.combining(results)
    }
}

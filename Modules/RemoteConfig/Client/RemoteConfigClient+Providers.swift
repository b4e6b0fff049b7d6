import ConfigDomain
import ConfigPorts
import Foundation

extension RemoteConfigClient {
    /// Refreshes every provider at once (with `onlyUnlessFresh`, those whose snapshot is not fresh)
    /// and combines their results; each provider activates its own snapshot when its fetch is done.
    func refreshEach(force: Bool, onlyUnlessFresh: Bool) async -> Result<RefreshResult, ConfigError> {
        let chosen = engines.filter { !onlyUnlessFresh || $0.freshness() != .fresh }
        guard !chosen.isEmpty else { return .success(.unchanged) }
        let results = await withTaskGroup(of: (Int, Result<RefreshResult, ConfigError>).self) { group in
            for (index, engine) in chosen.enumerated() {
                group.addTask { (index, await engine.refresh(force: force)) }
            }
            var results = [Result<RefreshResult, ConfigError>](repeating: .failure(.stopped), count: chosen.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
        return RefreshResult.combining(results)
    }
}

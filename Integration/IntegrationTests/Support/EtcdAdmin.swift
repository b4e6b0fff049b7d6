import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tests' own small client of etcd's JSON gateway, independent of the adapter under test:
/// one POST per call with a JSON body, answers read with `JSONSerialization`.
struct EtcdAdmin: Sendable {
    /// What the tests read from an answer.
    struct Answer: Sendable {
        /// The header's revision.
        var revision: Int64
        /// The token of an authenticate.
        var token: String
        /// The `mod_revision` of each key a range returned.
        var modRevisions: [Int64]
    }

    /// etcd refused the call for a reason a retry on another member would not change.
    struct Refusal: Error, CustomStringConvertible {
        var code: Int
        var message: String
        var description: String { "etcd refused: \(message) (code \(code))" }
    }

    /// A call that may work on another member or a moment later (no leader, connection refused).
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    private let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        // A write sent to a member while the cluster elects a new leader is held by etcd until its
        // own timeout (several seconds); give up after one and retry, by then on the new leader.
        configuration.timeoutIntervalForRequest = 1
        return URLSession(configuration: configuration)
    }()

    /// Posts `body` to `path` on `endpoint`.
    func call(_ endpoint: URL, _ path: String, _ body: [String: Any], token: String? = nil) async throws -> Answer {
        let object = try await post(endpoint, path, body, token: token)
        if let code = object["code"] as? Int {
            let message = (object["message"] as? String) ?? (object["error"] as? String) ?? ""
            if [1, 4, 10, 14].contains(code) { throw Unavailable(description: message) }
            throw Refusal(code: code, message: message)
        }
        let header = object["header"] as? [String: Any]
        let revision = Int64((header?["revision"] as? String) ?? "0") ?? 0
        let kvs = (object["kvs"] as? [[String: Any]]) ?? []
        return Answer(
            revision: revision, token: (object["token"] as? String) ?? "",
            modRevisions: kvs.compactMap { ($0["mod_revision"] as? String).flatMap { Int64($0) } })
    }

    /// The member's own id and the leader's id, from `/v3/maintenance/status`.
    func status(_ endpoint: URL) async throws -> (memberID: String?, leader: String?) {
        let object = try await post(endpoint, "v3/maintenance/status", [:], token: nil)
        return ((object["header"] as? [String: Any])?["member_id"] as? String, object["leader"] as? String)
    }

    /// Whether `/health` says the member is healthy (it has a leader and can serve).
    func isHealthy(_ endpoint: URL) async -> Bool {
        var request = URLRequest(url: endpoint.appendingPathComponent("health"))
        request.timeoutInterval = 2
        guard let (data, _) = try? await session.data(for: request),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["health"] as? String == "true"
    }

    private func post(_ endpoint: URL, _ path: String, _ body: [String: Any], token: String?) async throws -> [String: Any] {
        var request = URLRequest(url: endpoint.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue(token, forHTTPHeaderField: "Authorization") }
        let data: Data
        do {
            (data, _) = try await session.data(for: request)
        } catch {
            throw Unavailable(description: "\(endpoint): \(error.localizedDescription)")
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Unavailable(description: "\(endpoint) answered something other than a JSON object")
        }
        return object
    }
}

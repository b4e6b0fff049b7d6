import EtcdAdapter
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
        /// The value of each key a range returned.
        var values: [Data]
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

    /// The adapter's transport, used as a plain HTTP client: on Linux, `URLSession` stops the
    /// process on etcd 3.4's error answers (they carry an HTTP trailer), and this one does not.
    private let session = GatewayTransport()

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
            modRevisions: kvs.compactMap { ($0["mod_revision"] as? String).flatMap { Int64($0) } },
            values: kvs.map { Data(base64Encoded: ($0["value"] as? String) ?? "") ?? Data() })
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
        guard let data = try? await send(request),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["health"] as? String == "true"
    }

    private func post(_ endpoint: URL, _ path: String, _ body: [String: Any], token: String?) async throws -> [String: Any] {
        var request = URLRequest(url: endpoint.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        // A write sent to a member while the cluster elects a new leader is held by etcd until its
        // own timeout (several seconds); give up after one and retry, by then on the new leader.
        request.timeoutInterval = 1
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue(token, forHTTPHeaderField: "Authorization") }
        let data = try await send(request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Unavailable(description: "\(endpoint) answered something other than a JSON object")
        }
        return object
    }

    /// The body of the answer to `request`, whatever its status; throws when there is no answer.
    private func send(_ request: URLRequest) async throws -> Data {
        var body = Data()
        for await event in session.send(request) {
            switch event {
            case .response: break
            case .data(let chunk): body.append(chunk)
            case .finished(let failure?):
                throw Unavailable(description: "\(request.url?.absoluteString ?? ""): \(failure)")
            case .finished(nil): break
            }
        }
        return body
    }
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain HTTP requests to a `remote-config serve` child, with nothing cached in between.
enum CLIHTTPClient {
    /// A response: status, headers by lowercased name, body.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        /// The header `name` (any case).
        func header(_ name: String) -> String? { headers[name.lowercased()] }
        /// The body as UTF-8 text.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// An error of the harness.
    struct ClientError: Error, CustomStringConvertible {
        var description: String
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 20
        return URLSession(configuration: configuration)
    }()

    /// `POST url` with a JSON `body`.
    static func post(_ url: String, json body: String, headers: [String: String] = [:]) async throws -> Response {
        try await get(
            url, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, method: "POST", body: Data(body.utf8))
    }

    /// `GET url` with `headers` (or another `method`, with a `body`).
    static func get(_ url: String, headers: [String: String] = [:], method: String = "GET", body: Data? = nil) async throws
        -> Response
    {
        guard let target = URL(string: url) else { throw ClientError(description: "bad URL \(url)") }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 20)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ClientError(description: "not an HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Response(status: http.statusCode, headers: fields, body: data)
    }
}

import Foundation

// The JSON messages of etcd's v3 gRPC gateway that the adapter uses, as the gateway writes them:
// snake_case names, 64-bit integers as strings, keys and values base64, and fields at their zero
// value (an empty value, a PUT event type, watch id 0) left out.

/// A 64-bit integer the gateway writes as a string (`"42"`); a number is accepted too.
struct GatewayInt: Codable, Sendable, Hashable {
    /// The number.
    var value: Int64

    init(_ value: Int64) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = number
        } else if let parsed = Int64(try container.decode(String.self)) {
            value = parsed
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a 64-bit integer")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(value))
    }
}

/// The header of every response: the store's revision when it answered, and who answered.
struct ResponseHeader: Decodable, Sendable {
    var revision: GatewayInt?
    var memberId: String?
}

/// One key-value pair (`mvccpb.KeyValue`).
struct GatewayKeyValue: Decodable, Sendable {
    /// The key, base64.
    var key: String
    /// The value, base64; absent when empty.
    var value: String?
    /// The revision of the last write to the key.
    var modRevision: GatewayInt?
}

/// `POST /v3/kv/range`.
struct RangeRequest: Encodable, Sendable {
    var key: String
    var rangeEnd: String?
}

/// The answer to a range.
struct RangeResponse: Decodable, Sendable {
    var header: ResponseHeader?
    var kvs: [GatewayKeyValue]?
}

/// `POST /v3/kv/put`.
struct PutRequest: Encodable, Sendable {
    var key: String
    var value: String
}

/// The answer to a put.
struct PutResponse: Decodable, Sendable {
    var header: ResponseHeader?
}

/// `POST /v3/auth/authenticate`.
struct AuthenticateRequest: Encodable, Sendable {
    var name: String
    var password: String
}

/// The answer to an authenticate: the token to send as the `Authorization` header.
struct AuthenticateResponse: Decodable, Sendable {
    var token: String?
}

/// `POST /v3/watch`: the one request a gateway watch stream carries.
struct WatchRequest: Encodable, Sendable {
    struct Create: Encodable, Sendable {
        var key: String
        var rangeEnd: String?
        var startRevision: GatewayInt
    }

    var createRequest: Create
}

/// One line of a watch stream: a result, or the error that ended the stream.
struct WatchStreamLine: Decodable, Sendable {
    struct StreamError: Decodable, Sendable {
        var grpcCode: Int?
        var message: String?
    }

    var result: WatchResponse?
    var error: StreamError?
}

/// A watch response: created, canceled (compaction, auth) or events.
struct WatchResponse: Decodable, Sendable {
    var header: ResponseHeader?
    var created: Bool?
    var canceled: Bool?
    var compactRevision: GatewayInt?
    var cancelReason: String?
    var events: [WatchEvent]?
}

/// One change in a watch response.
struct WatchEvent: Decodable, Sendable {
    /// `DELETE`, or absent for a put.
    var type: String?
    var kv: GatewayKeyValue?

    var isDelete: Bool { type == "DELETE" }
}

/// The body of a failed unary call: a gRPC status code and its message.
struct GatewayErrorBody: Decodable, Sendable {
    var code: Int?
    var message: String?
    var error: String?
}

extension JSONEncoder {
    /// An encoder for gateway requests (snake_case names).
    static let gateway: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()
}

extension JSONDecoder {
    /// A decoder for gateway responses (snake_case names).
    static let gateway: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()
}

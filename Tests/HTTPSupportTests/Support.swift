import ConfigDomain
import Foundation
import HTTPSupport
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed clock for `Retry-After: <seconds>`.
let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)

/// A request for `url` from "the test server", with the test's changes.
func transportRequest(
    _ url: URL, method: String = "GET", timeout: TimeInterval = loopbackDeadline, maxBodySize: Int = 1024 * 1024,
    _ change: (inout HTTPTransportRequest) -> Void = { _ in }
) -> HTTPTransportRequest {
    var request = HTTPTransportRequest(
        method: method, url: url, timeout: timeout, maxBodySize: maxBodySize,
        wording: ErrorWording(server: "the test server", url: EndpointPolicy.displayString(for: url)))
    change(&request)
    return request
}

/// What a fresh `URLSessionTransport` answers to `request`: the response, or the error.
func exchange(_ request: HTTPTransportRequest) async -> Result<HTTPTransportResponse, FetchError> {
    do throws(FetchError) {
        return .success(try await URLSessionTransport(timeout: request.timeout).send(request))
    } catch {
        return .failure(error)
    }
}

extension Result<HTTPTransportResponse, FetchError> {
    /// The response, or nil.
    var response: HTTPTransportResponse? { try? get() }

    /// The error, or nil.
    var error: FetchError? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

/// A loopback TCP port with no listener: bound to port 0, read back, closed.
func unusedLoopbackPort() -> UInt16? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else { return nil }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { return nil }
    return UInt16(bigEndian: address.sin_port)
}

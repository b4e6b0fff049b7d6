import Foundation
import HTTPAdapter

/// The largest payload an app accepts by default: `HTTPFetcher.Configuration.maxBodySize` (2 MiB).
/// `validate` refuses a bigger file and `serve` warns about one, since every client left at the
/// default refuses it.
enum PayloadSizeLimit {
    /// The limit, in bytes.
    static let bytes = HTTPFetcher.Configuration().maxBodySize

    /// Why a payload of `size` bytes is over `limit`, or nil when it is not.
    static func problem(size: Int, limit: Int = bytes) -> String? {
        guard size > limit else { return nil }
        return "it is \(Formatting.bytes(size)), over the \(Formatting.bytes(limit)) an app's HTTPFetcher accepts "
            + "(Configuration.maxBodySize), so clients refuse it"
    }
}

import ConfigDomain
import Foundation

extension HTTPFetcher {
    /// How a payload's detached signature travels with it. The fetcher only carries the signature
    /// text to the client (``ConfigPorts/FetchedPayload/signature``); the client verifies it.
    ///
    /// Either way the text is one line, `keyid=prod-2026, config=default, version=1767225600000, sig=<base64>`
    /// (`PayloadSignature.text` in `SigningAdapter`), as `remote-config sign` writes it.
    ///
    /// **Conditional requests.** A `304 Not Modified` carries no payload and so no signature: the
    /// client keeps the payload it holds with the signature it was verified with (both are cached
    /// together). A signature is only ever read with the payload bytes of a `200`.
    public enum SignatureTransport: Sendable, Hashable {
        /// The `X-Config-Signature` header of the payload's `200` response (the default).
        ///
        /// The signature and the bytes arrive in one response, so they always belong together. No
        /// header means no signature.
        case header
        /// A file next to the payload: the payload URL with `suffix` appended to its path (query
        /// kept), so `…/config.json?key=…` has `…/config.json.sig?key=…`. Use it where the host
        /// cannot set headers (an object store, a plain CDN).
        ///
        /// It is fetched after each `200` of the payload, unconditionally, with the same headers
        /// (credentials included: it has the same origin), any content type, at most
        /// ``sidecarByteLimit`` bytes. A `404`, `410` or an empty file means no signature. Any other
        /// failure fails the fetch with its usual error, so the client keeps its last good configuration.
        ///
        /// Publish the signature file **before** the payload: a client that holds the previous
        /// payload gets a `304` until the payload changes, then the new pair. A client that fetches
        /// between the two uploads gets a pair that does not verify, refuses it, and picks up the
        /// matching pair at its next refresh.
        case sidecar(suffix: String)

        /// The header read by ``header``.
        public static let headerName = "X-Config-Signature"
        /// The sidecar of the conventional name: `config.json.sig` next to `config.json`.
        public static let sidecarFile = SignatureTransport.sidecar(suffix: ".sig")
        /// The largest signature file accepted, in bytes: a signature's longest text and a line end.
        public static let sidecarByteLimit = SnapshotMetadata.maxSignatureLength + 2

        /// Why this transport cannot work, or nil when it can.
        var problem: String? {
            guard case .sidecar(let suffix) = self else { return nil }
            let forbidden = CharacterSet(charactersIn: "/?#%").union(.whitespacesAndNewlines).union(.controlCharacters)
            if suffix.isEmpty || suffix.unicodeScalars.contains(where: forbidden.contains) {
                return "HTTPFetcher signatureTransport sidecar suffix \"\(suffix)\" must be a non-empty file-name ending "
                    + "without '/', '?', '#', '%' or spaces, such as \".sig\""
            }
            return nil
        }
    }
}

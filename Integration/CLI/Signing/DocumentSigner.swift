import ConfigDomain
import ConfigPorts
import Foundation
import SigningAdapter

/// Signs what `serve --sign-with` serves: each version of each document once, for one configuration
/// name, with the version its `Last-Modified` gives (in milliseconds since 1970), which only grows
/// (the library makes each new version of a file at least a second later than the previous one).
final class DocumentSigner: Sendable {
    /// The key.
    let signer: Ed25519Signer
    /// The configuration every document is signed for.
    let configurationName: String
    /// Signature text by document path and entity tag.
    private let signed = Locked<[String: String]>([:])

    init(_ signer: Ed25519Signer, configurationName: String) {
        self.signer = signer
        self.configurationName = configurationName
    }

    /// The signature text of `document`, or the signing error's message.
    func signature(for document: DocumentLibrary.Document) -> Result<String, SigningError> {
        let id = document.path + "\u{0}" + document.etag
        if let text = signed.withLock({ $0[id] }) { return .success(text) }
        let version = UInt64(max(0, document.lastModified.timeIntervalSince1970) * 1000)
        do throws(SigningError) {
            let text = try signer.sign(document.body, configurationName: configurationName, version: version).text
            signed.withLock { $0[id] = text }
            return .success(text)
        } catch {
            return .failure(error)
        }
    }
}

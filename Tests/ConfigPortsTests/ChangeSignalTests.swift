import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@Suite("ChangeSignal")
struct ChangeSignalTests {
    @Test(arguments: [
        ("abc", "\"abc\""), ("abc", "W/\"abc\""), ("\"abc\"", "\"abc\""), ("W/\"abc\"", "\"abc\""), ("42", "42"),
    ])
    func aVersionMatchesItsETagWithOrWithoutQuotesAndWeakPrefix(version: String, etag: String) {
        #expect(ChangeSignal.isSameVersion(version, as: Validators(etag: etag)))
    }

    @Test func differentVersionsAndMissingETagsDoNotMatch() {
        #expect(!ChangeSignal.isSameVersion("abc", as: Validators(etag: "\"abd\"")))
        #expect(!ChangeSignal.isSameVersion("abc", as: Validators(lastModified: "Tue, 15 Nov 1994 08:12:31 GMT")))
        #expect(!ChangeSignal.isSameVersion("", as: Validators(etag: "\"x\"")))
    }

    @Test func aSignalNamesItsVersion() {
        #expect(ChangeSignal.changed(version: "7").version == "7")
        #expect(ChangeSignal.changed(version: nil).version == nil)
        let payload = FetchedPayload(bytes: Data(), validators: Validators(etag: "\"9\""), source: "t")
        #expect(ChangeSignal.payload(payload).version == "\"9\"")
    }
}

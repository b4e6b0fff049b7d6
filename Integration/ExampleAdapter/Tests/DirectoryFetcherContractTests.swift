import ExampleDirectoryAdapter
import TestDoubles
import Testing

/// The fetcher contract for a ``DirectoryFetcher`` reading `directory`.
///
/// A directory read cannot be held in flight or counted from outside, and the fetcher holds no
/// secret: those three checks are skipped, and the report says so.
func directoryFetcherContract(_ directory: ConfigDirectory) -> FetcherContract {
    FetcherContract(
        subject: "DirectoryFetcher",
        capabilities: [.cannotHold, .uncountedRequests, .noSecrets],
        makeFetcher: { DirectoryFetcher(directory: directory.url) },
        serve: { try directory.serve($0) },
        setFault: { try directory.setFault($0) }
    )
}

@Test func directoryFetcherPassesTheFetcherContract() async {
    let directory = ConfigDirectory()
    defer { directory.remove() }

    let report = await directoryFetcherContract(directory).run()

    report.recordIssues()
    #expect(report.skipped.count == 3)
}

#if canImport(XCTest)
    import XCTest

    final class DirectoryFetcherContractXCTests: XCTestCase {
        func testDirectoryFetcherPassesTheFetcherContract() async {
            let directory = ConfigDirectory()
            defer { directory.remove() }

            let report = await directoryFetcherContract(directory).run()

            XCTAssertTrue(report.passed, report.description)
            XCTAssertEqual(report.failures.map(\.name), [])
        }
    }
#endif

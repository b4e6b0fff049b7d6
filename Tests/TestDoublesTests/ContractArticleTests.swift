// Mirrors the code of Modules/TestDoubles/ContractTesting.md, so the article's examples keep
// compiling and passing. `articleCodeIsMirroredHere` fails when the two drift apart.
import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

/// Serves configuration from a JSON file; its ETag is the hash of the file's bytes.
struct FileFetcher: ConfigFetcher {
    let url: URL

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        if Task.isCancelled { throw .cancelled }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            throw FetchError(
                .other, retry: .backoff,
                message: "\(url.path) does not exist (yet); the client retries with backoff")
        } catch {
            throw FetchError(
                .other, retry: .doNotRetry,
                message: "cannot read \(url.path) (\(error.localizedDescription)); fix the path or permissions")
        }
        let etag = "\"\(ContentHash(of: bytes))\""
        if request.validators.etag == etag { return .notModified(Validators(etag: etag)) }
        return .modified(
            FetchedPayload(
                bytes: bytes, validators: Validators(etag: etag), contentType: "application/json",
                source: url.absoluteString))
    }
}

/// The file the contract drives: what it holds, and how it fails.
actor FileBackend {
    let file: URL
    private var served = Data()

    init(file: URL) { self.file = file }

    func serve(_ bytes: Data) throws {
        served = bytes
        try bytes.write(to: file, options: .atomic)
    }

    func setFault(_ fault: FetcherContract.Fault?) throws {
        try? FileManager.default.removeItem(at: file)
        switch fault {
        case .temporary?: break  // No file: it may appear later.
        case .permanent?: try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        case nil: try served.write(to: file, options: .atomic)
        }
    }
}

@Test func fileFetcherPassesTheFetcherContract() async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("file-fetcher-contract-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("config.json")
    let backend = FileBackend(file: file)

    let report = await FetcherContract(
        subject: "FileFetcher",
        capabilities: [.cannotHold, .uncountedRequests, .noSecrets],
        makeFetcher: { FileFetcher(url: file) },
        serve: { try await backend.serve($0) },
        setFault: { try await backend.setFault($0) }
    ).run()

    report.recordIssues()
    #expect(report.skipped.count == 3)
}

@Test func inMemoryCachePassesTheCacheContract() async {
    let report = await SnapshotCacheContract<InMemoryCache>(
        subject: "InMemoryCache",
        makeCache: { InMemoryCache() },
        damage: { cache, name, slot, _ in cache.corrupt(name, slot: slot) },
        failWrites: { cache, failing in
            cache.failWrites(with: failing ? CacheError(.io(operation: "write", code: 28), message: "disk full") : nil)
        },
        payloadBytesWritten: { $0.payloadBytesWritten }
    ).run()
    report.recordIssues()
}

@Test func inMemoryOverrideSourcePassesTheOverrideContract() async {
    let report = await OverrideSourceContract<InMemoryOverrideSource>(
        subject: "InMemoryOverrideSource",
        capabilities: [.noMalformedInput],
        makeSource: { values in InMemoryOverrideSource(values: values.mapValues { .text($0) }) },
        update: { source, values in
            source.removeAll()
            for (key, text) in values { source.set(key, .text(text)) }
        }
    ).run()
    report.recordIssues()
}

@Test func articleCodeIsMirroredHere() throws {
    let tests = URL(fileURLWithPath: #filePath)
    let article = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Modules/TestDoubles/ContractTesting.md")
    let markdown = try String(contentsOf: article, encoding: .utf8)
    let mirror = try String(contentsOf: tests, encoding: .utf8).components(separatedBy: "\n").map(trimmed)
    let blocks = markdown.components(separatedBy: "```swift\n").dropFirst().compactMap {
        $0.components(separatedBy: "```").first
    }
    #expect(blocks.count == 5)
    for (index, block) in blocks.enumerated() {
        var position = mirror.startIndex
        for line in block.components(separatedBy: "\n").map(trimmed) where !line.isEmpty {
            guard let found = mirror[position...].firstIndex(of: line) else {
                Issue.record(
                    "code block \(index + 1) of ContractTesting.md is not mirrored here; missing line: \(line)")
                break
            }
            position = mirror.index(after: found)
        }
    }
}

private func trimmed(_ line: String) -> String { line.trimmingCharacters(in: .whitespaces) }

import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

@Suite("Names and clear")
struct NamesAndClearTests {
    static let hostileNames: [String] = [
        "", ".", "..", "../x", "../../etc/passwd", "/", "/absolute/path", "a/b", "a_b", "a\\b", "nul\u{0}byte", "\u{0}",
        "Prod", "prod", "PROD", "-rf", "--", "name with spaces", "tab\there", "new\nline", "émoji 🚀", "e\u{301}",
        String(repeating: "long", count: 5_000), String(repeating: "é", count: 300), "con", "aux.txt", "x.active.snap",
    ]

    @Test("hostile names are stored and loaded apart, inside the directory, with short safe file names")
    func hostileNamesKeptApart() async throws {
        try await withTemporaryDirectory { dir in
            let root = dir.url.appendingPathComponent("cache", isDirectory: true)
            let cache = FileSnapshotCache(directory: root)
            for (index, name) in Self.hostileNames.enumerated() {
                try await cache.store(sampleSnapshot(index), as: name, slot: .active)
            }
            for (index, name) in Self.hostileNames.enumerated() {
                #expect(
                    await cache.load(name, slot: .active) == .hit(sampleSnapshot(index)), "\(name.debugDescription.prefix(40))")
            }
            // Nothing escaped: the parent holds only the cache directory, and every file name is tame.
            #expect(dir.contents() == ["cache"])
            let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
            #expect(files.count == Self.hostileNames.count * 2)
            for file in files {
                #expect(file.utf8.count <= 90, "\(file)")
                #expect(!file.hasPrefix("-") && !file.hasPrefix("."))
                #expect(
                    file.unicodeScalars.allSatisfy {
                        $0.isASCII && ($0.properties.isAlphabetic || "0123456789._-".unicodeScalars.contains($0))
                    })
            }
            let stems = Set(Self.hostileNames.map { CacheFileNames(name: $0).stem })
            #expect(stems.count == Self.hostileNames.count)
            // Names that differ only in case differ in more than case, for case-insensitive volumes.
            let lowered = Set(Self.hostileNames.map { CacheFileNames(name: $0).stem.lowercased() })
            #expect(lowered.count == Self.hostileNames.count)
        }
    }

    @Test("stems are part of the on-disk format: the same name gives the same files in every version")
    func stemsAreStable() {
        // The readable prefix, then the first 16 bytes of the SHA-256 of the NFC form, in hex.
        #expect(CacheFileNames(name: "default").stem == "default-37a8eec1ce19687d132fe29051dca629")
        #expect(CacheFileNames(name: "caf\u{E9}/../x").stem == "caf_____x-22bfb4937ffd155b42ff5b49f929ca6d")
        #expect(CacheFileNames(name: "cafe\u{301}/../x").stem == "caf_____x-22bfb4937ffd155b42ff5b49f929ca6d")
    }

    @Test("the directory's path is the URL's file-system path, without a trailing slash, for every form of URL")
    func directoryPaths() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let cases: [(URL, String)] = [
            (URL(fileURLWithPath: "/tmp/cache", isDirectory: true), "/tmp/cache"),
            (URL(fileURLWithPath: "/tmp/cache", isDirectory: false), "/tmp/cache"),
            (URL(fileURLWithPath: "/tmp/my dir/x%20y", isDirectory: true), "/tmp/my dir/x%20y"),
            (try #require(URL(string: "file:///tmp/a%20b/")), "/tmp/a b"),
            (URL(fileURLWithPath: "/tmp/é/", isDirectory: true), "/tmp/é"),
            (URL(fileURLWithPath: "/", isDirectory: true), "/"),
            (URL(fileURLWithPath: "relative/dir", isDirectory: true), cwd + "/relative/dir"),
        ]
        for (url, expected) in cases {
            #expect(FileSnapshotCache.fileSystemPath(of: url) == expected, "\(url)")
            #expect(FileSnapshotCache.fileSystemPath(of: url) == url.path, "\(url) against URL.path")
        }
    }

    @Test("a cache in a directory whose name has a space and a percent sign stores and loads there")
    func directoryWithSpaceAndPercent() async throws {
        try await withTemporaryDirectory { dir in
            let root = dir.url.appendingPathComponent("my cache 100%", isDirectory: true)
            let cache = FileSnapshotCache(directory: root)
            try await cache.store(sampleSnapshot(1), as: "default", slot: .active)
            #expect(await cache.load("default", slot: .active) == .hit(sampleSnapshot(1)))
            #expect(dir.contents() == ["my cache 100%"])
        }
    }

    @Test("names Swift considers equal (canonically equivalent) share their files")
    func canonicalEquivalence() async throws {
        #expect(CacheFileNames(name: "caf\u{e9}").stem == CacheFileNames(name: "cafe\u{301}").stem)
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "caf\u{e9}", slot: .active)
            #expect(await cache.load("cafe\u{301}", slot: .active) == .hit(sampleSnapshot(1)))
        }
    }

    @Test("the file stem is a readable prefix plus a hash")
    func stemShape() {
        let names = CacheFileNames(name: "prod/eu-west.v2")
        #expect(names.stem.hasPrefix("prod_eu-west_v2-"))
        #expect(names.stem.count == "prod_eu-west_v2-".count + 32)
        #expect(names.snapshot(.active) == names.stem + ".active.snap")
        #expect(names.snapshot(.pending) == names.stem + ".pending.snap")
        #expect(names.renewedMetadata == names.stem + ".active.meta")
        #expect(names.lock == names.stem + ".lock")
        #expect(CacheFileNames(name: "").stem.hasPrefix("_-"))
        #expect(CacheFileNames(name: "-x").stem.hasPrefix("_x-"))
        #expect(CacheFileNames(name: String(repeating: "a", count: 1_000)).stem.count == 40 + 1 + 32)
    }

    @Test("storing, renewing and clearing one name never changes another")
    func namesIndependent() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "a", slot: .active)
            try await cache.store(sampleSnapshot(2), as: "b", slot: .active)
            try await cache.store(sampleSnapshot(3), as: "b", slot: .pending)
            try await cache.store(sampleSnapshot(4), as: "a", slot: .active)
            try await cache.renew(fullMetadata(40, payload: sampleSnapshot(4).payload), for: "a")
            #expect(try await cache.promotePending("a") == false)
            try await cache.clear("a")
            #expect(await cache.load("a", slot: .active) == .miss)
            #expect(await cache.load("b", slot: .active) == .hit(sampleSnapshot(2)))
            #expect(await cache.load("b", slot: .pending) == .hit(sampleSnapshot(3)))
        }
    }

    @Test("clear removes both slots and the renewal file, and is a no-op for absent names and directories")
    func clearRemovesEverything() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "c", slot: .active)
            try await cache.store(sampleSnapshot(2), as: "c", slot: .pending)
            try await cache.renew(fullMetadata(9, payload: sampleSnapshot(1).payload), for: "c")
            try await cache.clear("c")
            #expect(await cache.load("c", slot: .active) == .miss)
            #expect(await cache.load("c", slot: .pending) == .miss)
            #expect(dir.contents() == [cache.fileNames(for: "c").lock])
            try await cache.clear("c")
            try await cache.clear("never-stored")
            let absent = FileSnapshotCache(directory: dir.url.appendingPathComponent("absent"))
            try await absent.clear("x")
            #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("absent").path))
        }
    }

    @Test("a file copied under another name's file name is refused as badMetadata")
    func copiedFileRefused() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "source", slot: .active)
            try FileManager.default.copyItem(
                atPath: dir.file(cache.fileNames(for: "source").snapshot(.active)),
                toPath: dir.file(cache.fileNames(for: "target").snapshot(.active)))
            let result = await cache.load("target", slot: .active)
            #expect(corruption(result) == .badMetadata)
            if case .unreadable(let error) = result { #expect(error.message.contains("'source'")) }
            #expect(await cache.load("source", slot: .active) == .hit(sampleSnapshot(1)))
        }
    }

    @Test("leftover temporary files of a crashed writer are removed by the next store of that name only")
    func leftoversRemoved() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "t", slot: .active)
            let leftover = cache.fileNames(for: "t").stem + ".0123456789abcdef.tmp"
            let foreign = cache.fileNames(for: "u").stem + ".0123456789abcdef.tmp"
            try overwrite(dir.file(leftover), with: [1, 2])
            try overwrite(dir.file(foreign), with: [1, 2])
            #expect(await cache.load("t", slot: .active) == .hit(sampleSnapshot(1)))
            try await cache.store(sampleSnapshot(2), as: "t", slot: .active)
            #expect(!FileManager.default.fileExists(atPath: dir.file(leftover)))
            #expect(FileManager.default.fileExists(atPath: dir.file(foreign)))
        }
    }
}

import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Names and clear")
struct NamesAndClearTests {
    static let hostileNames: [String] = [
        "", ".", "..", "../x", "../../etc/passwd", "/", "/absolute/path", "a/b", "a_b", "a%2fb", "a\\b", "nul\u{0}byte",
        "\u{0}", "%", "%%", "Prod", "prod", "PROD", "-rf", "--", "x-", "name with spaces", "tab\there", "new\nline",
        "émoji 🚀", "e\u{301}x", String(repeating: "long", count: 50), String(repeating: "é", count: 33), "con", "aux.txt",
        "x.active.snap",
    ]

    @Test("hostile names are stored and loaded apart, inside the directory, with safe file names")
    func hostileNamesKeptApart() async throws {
        try await withTemporaryDirectory { dir in
            let root = dir.url.appendingPathComponent("cache", isDirectory: true)
            let cache = FileSnapshotCache(directory: root)
            for (index, name) in Self.hostileNames.enumerated() {
                try await cache.store(sampleSnapshot(index), as: name, slot: .active)
            }
            for (index, name) in Self.hostileNames.enumerated() {
                #expect(cache.load(name, slot: .active) == .hit(sampleSnapshot(index)), "\(name.debugDescription.prefix(40))")
            }
            // Nothing escaped: the parent holds only the cache directory, and every file name is tame.
            #expect(dir.contents() == ["cache"])
            let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
            #expect(files.count == Self.hostileNames.count * 2)
            for file in files {
                #expect(file.utf8.count <= CacheFileNames.maxStemLength + ".pending.snap".count, "\(file)")
                #expect(!file.hasPrefix("-") && !file.hasPrefix("."))
                #expect(file.unicodeScalars.allSatisfy { "abcdefghijklmnopqrstuvwxyz0123456789._-%".unicodeScalars.contains($0) })
            }
            let stems = Set(Self.hostileNames.map { CacheFileNames(name: $0).stem })
            #expect(stems.count == Self.hostileNames.count)
        }
    }

    @Test("stems are injective, also on case-insensitive volumes, and decode back to the name")
    func stemsAreInjectiveAndReversible() {
        let pairs: [(String, String)] = [("a/b", "a_b"), ("Prod", "prod"), ("a%2fb", "a/b"), ("-x", "%2dx"), ("", "%")]
        for (first, second) in pairs {
            #expect(CacheFileNames(name: first).stem != CacheFileNames(name: second).stem, "\(first) vs \(second)")
            #expect(
                CacheFileNames(name: first).stem.lowercased() != CacheFileNames(name: second).stem.lowercased(),
                "\(first) vs \(second), ignoring case")
        }
        for name in Self.hostileNames {
            let stem = CacheFileNames(name: name).stem
            #expect(stem == stem.lowercased(), "\(stem)")
            #expect(CacheFileNames.name(fromStem: stem) == name, "\(name.debugDescription)")
        }
        // Only stems the cache makes decode: not a name's other spellings, not malformed escapes.
        for notAStem in ["A", "%61", "%C3%A9", "e%cc%81", "%2", "%zz", "a.b", "%ff", "-x"] {
            #expect(CacheFileNames.name(fromStem: notAStem) == nil, "\(notAStem)")
        }
    }

    @Test("a name's composed and decomposed spellings share one stem, in normal form C; ASCII names are kept as they are")
    func stemsNormaliseUnicode() {
        let composed = CacheFileNames(name: "caf\u{E9}").stem
        #expect(CacheFileNames(name: "cafe\u{301}").stem == composed)
        #expect(composed == "caf%c3%a9")
        #expect(CacheFileNames(name: "plain-ascii_1").stem == "plain-ascii_1")
    }

    @Test("stems are part of the on-disk format: the same name gives the same files in every version")
    func stemsAreStable() {
        #expect(CacheFileNames(name: "default").stem == "default")
        #expect(CacheFileNames(name: "prod/eu-west.v2").stem == "prod%2feu-west%2ev2")
        #expect(CacheFileNames(name: "Prod").stem == "%50rod")
        #expect(CacheFileNames(name: "caf\u{E9}/../x").stem == "caf%c3%a9%2f%2e%2e%2fx")
        #expect(CacheFileNames(name: "cafe\u{301}/../x").stem == "caf%c3%a9%2f%2e%2e%2fx")
        #expect(CacheFileNames(name: "").stem == "%")
        #expect(CacheFileNames(name: "-x-").stem == "%2dx-")
        #expect(CacheFileNames(name: "\u{0}\t").stem == "%00%09")
        let names = CacheFileNames(name: "prod")
        #expect(names.snapshot(.active) == "prod.active.snap")
        #expect(names.snapshot(.pending) == "prod.pending.snap")
        #expect(names.renewedMetadata == "prod.active.meta")
        #expect(names.lock == "prod.lock")
    }

    @Test("a name whose stem would pass 200 bytes cannot be stored: a typed error asks for a shorter name, and loads miss")
    func tooLongNames() async throws {
        let longest = String(repeating: "a", count: CacheFileNames.maxStemLength)
        let tooLong = [
            longest + "b", String(repeating: "é", count: 34), String(repeating: "A", count: 67),
            String(repeating: "long", count: 5_000),
        ]
        try await withTemporaryDirectory { dir in
            let root = dir.url.appendingPathComponent("cache", isDirectory: true)
            let cache = FileSnapshotCache(directory: root)
            try await cache.store(sampleSnapshot(1), as: longest, slot: .active)
            #expect(cache.load(longest, slot: .active) == .hit(sampleSnapshot(1)))
            for name in tooLong {
                do throws(CacheError) {
                    try await cache.store(sampleSnapshot(2), as: name, slot: .active)
                    Issue.record("storing a name that long must throw")
                } catch {
                    #expect(error.kind == .io(operation: "name", code: ENAMETOOLONG))
                    #expect(error.message.contains("choose a shorter configuration name"))
                }
                await #expect(throws: CacheError.self) { try await cache.renew(sampleSnapshot(2).metadata, for: name) }
                #expect(cache.load(name, slot: .active) == .miss)
                #expect(cache.load(name, slot: .pending) == .miss)
                #expect(try cache.promotePending(name) == false)
                try await cache.clear(name)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).count == 2)
        }
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
            #expect(FileSnapshotCache(directory: url).directoryPath == expected, "\(url)")
        }
    }

    @Test("a cache in a directory whose name has a space and a percent sign stores and loads there")
    func directoryWithSpaceAndPercent() async throws {
        try await withTemporaryDirectory { dir in
            let root = dir.url.appendingPathComponent("my cache 100%", isDirectory: true)
            let cache = FileSnapshotCache(directory: root)
            try await cache.store(sampleSnapshot(1), as: "default", slot: .active)
            #expect(cache.load("default", slot: .active) == .hit(sampleSnapshot(1)))
            #expect(dir.contents() == ["my cache 100%"])
        }
    }

    @Test("names Swift considers equal (canonically equivalent) share their files")
    func canonicalEquivalence() async throws {
        #expect(CacheFileNames(name: "caf\u{e9}").stem == CacheFileNames(name: "cafe\u{301}").stem)
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "caf\u{e9}", slot: .active)
            #expect(cache.load("cafe\u{301}", slot: .active) == .hit(sampleSnapshot(1)))
        }
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
            #expect(try cache.promotePending("a") == false)
            try await cache.clear("a")
            #expect(cache.load("a", slot: .active) == .miss)
            #expect(cache.load("b", slot: .active) == .hit(sampleSnapshot(2)))
            #expect(cache.load("b", slot: .pending) == .hit(sampleSnapshot(3)))
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
            #expect(cache.load("c", slot: .active) == .miss)
            #expect(cache.load("c", slot: .pending) == .miss)
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
            let result = cache.load("target", slot: .active)
            #expect(corruption(result) == .badMetadata)
            if case .unreadable(let error) = result { #expect(error.message.contains("'source'")) }
            #expect(cache.load("source", slot: .active) == .hit(sampleSnapshot(1)))
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
            #expect(cache.load("t", slot: .active) == .hit(sampleSnapshot(1)))
            try await cache.store(sampleSnapshot(2), as: "t", slot: .active)
            #expect(!FileManager.default.fileExists(atPath: dir.file(leftover)))
            #expect(FileManager.default.fileExists(atPath: dir.file(foreign)))
        }
    }
}

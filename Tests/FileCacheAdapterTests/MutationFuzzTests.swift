import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

/// Random damage to a valid file: a flipped bit, a changed byte, a truncation, inserted or
/// deleted bytes, a swapped pair.
enum Mutation {
    static func apply(to valid: [UInt8], using generator: inout SeededGenerator) -> (bytes: [UInt8], label: String) {
        var bytes = valid
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            let bit = UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            bytes[position] ^= bit
            return (bytes, "flip bit \(bit) at \(position)")
        case 1:
            let value = UInt8.random(in: 0...255, using: &generator)
            bytes[position] = value == bytes[position] ? value &+ 1 : value
            return (bytes, "set byte \(position)")
        case 2:
            return (Array(bytes.prefix(position)), "truncate to \(position)")
        case 3:
            let count = Int.random(in: 1...4, using: &generator)
            let inserted = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.insert(contentsOf: inserted, at: Int.random(in: 0...bytes.count, using: &generator))
            return (bytes, "insert \(count) bytes")
        case 4:
            let count = min(Int.random(in: 1...4, using: &generator), bytes.count - position)
            bytes.removeSubrange(position..<(position + count))
            return (bytes, "delete \(count) bytes at \(position)")
        default:
            let other = Int.random(in: 0..<bytes.count, using: &generator)
            bytes.swapAt(position, other)
            return (bytes, "swap \(position) and \(other)")
        }
    }
}

@Suite("Random damage")
struct MutationFuzzTests {
    @Test("1,200 random mutations of a snapshot file never crash and never yield anything but the original or unreadable")
    func snapshotMutations() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            let original = sampleSnapshot(5, size: 200)
            try await cache.store(original, as: "fuzz", slot: .active)
            let path = dir.file(cache.fileNames(for: "fuzz").snapshot(.active))
            let valid = try bytes(of: path)
            var generator = SeededGenerator(seed: 0xF11E_CAC4E)
            var unreadable = 0
            for iteration in 0..<1_200 {
                let (mutated, label) = Mutation.apply(to: valid, using: &generator)
                try overwrite(path, with: mutated)
                let result = cache.load("fuzz", slot: .active)
                switch result {
                case .hit(let snapshot):
                    // Only an identity mutation (a swap of equal bytes) may load, and then exactly.
                    #expect(snapshot == original, "iteration \(iteration): \(label) loaded different data")
                    #expect(mutated == valid, "iteration \(iteration): \(label) was accepted")
                case .unreadable:
                    unreadable += 1
                    #expect(cache.load("fuzz", slot: .active) == .miss, "iteration \(iteration): \(label)")
                case .miss:
                    Issue.record("iteration \(iteration): \(label) gave a miss while a file was present")
                }
            }
            #expect(unreadable > 1_000)
            #expect(dir.contents("quarantine").count == 3)
        }
    }

    @Test("400 random mutations of a renewal file yield the payload with the renewed or the stored metadata, never other data")
    func renewalMutations() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            let original = sampleSnapshot(6, size: 120)
            try await cache.store(original, as: "fuzz", slot: .active)
            let renewed = original.metadata.renewed(at: original.metadata.fetchedAt + 30, validators: Validators(etag: "\"r\""))
            try await cache.renew(renewed, for: "fuzz")
            let path = dir.file(cache.fileNames(for: "fuzz").renewedMetadata)
            let valid = try bytes(of: path)
            var generator = SeededGenerator(seed: 0x5EED)
            for iteration in 0..<400 {
                let (mutated, label) = Mutation.apply(to: valid, using: &generator)
                try overwrite(path, with: mutated)
                let loaded = try #require(cache.load("fuzz", slot: .active).snapshot, "iteration \(iteration): \(label)")
                #expect(loaded.payload == original.payload)
                if mutated == valid {
                    #expect(loaded.metadata == renewed)
                } else {
                    #expect(loaded.metadata == original.metadata, "iteration \(iteration): \(label) was accepted")
                }
            }
        }
    }
}

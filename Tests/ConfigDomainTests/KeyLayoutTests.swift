import Testing

@testable import ConfigDomain

/// A cold start creates every key, and each page of new memory costs it microseconds: these pin
/// the layouts that keep a key's typed state small (one-byte flags last, sharing padding).
@Suite("Key layout")
struct KeyLayoutTests {
    #if arch(x86_64) || arch(arm64)
        @Test("a converter and a key's checks end with their one-byte flags, not padding")
        func flagsLast() {
            // One function that hands out the others (16 bytes), then the flag.
            #expect(MemoryLayout<ValueConverter<Bool>>.size == 16 + 1)
            // Name (16), rules (8), the converter, then the flag right after the converter's.
            #expect(MemoryLayout<KeyChecks<Bool>>.size == 16 + 8 + MemoryLayout<ValueConverter<Bool>>.size + 1)
        }
    #endif
}

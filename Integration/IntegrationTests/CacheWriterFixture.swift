import Foundation

/// The CacheWriterFixture executable, which the file-cache integration tests run as child
/// processes (writers hammering a cache, a writer killed at random moments, a cold start).
enum CacheWriterFixture {
    /// The built fixture, or nil when it has not been built.
    static var executable: URL? { try? BuiltProducts.executable(named: "CacheWriterFixture") }
}

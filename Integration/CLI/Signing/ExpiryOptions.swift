import ArgumentParser
import Foundation

/// `--expires-in 7d` or `--expires-at 2026-12-31T00:00:00Z`: when clients stop counting a signed payload as current.
struct ExpiryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How long clients count the payload as current: a whole number with s, m, h or d (90m, 12h, 7d).",
            valueName: "duration"))
    var expiresIn: String?

    @Option(
        help: ArgumentHelp(
            "When clients stop counting the payload as current, in ISO 8601 (2026-12-31T00:00:00Z).", valueName: "time"))
    var expiresAt: String?

    func validate() throws {
        if expiresIn != nil && expiresAt != nil { throw ValidationError("give --expires-in or --expires-at, not both") }
        if let expiresIn, Self.seconds(in: expiresIn) == nil {
            throw ValidationError(
                "--expires-in must be a whole number followed by s, m, h or d, such as 7d or 12h; got \"\(expiresIn)\"")
        }
        if let expiresAt, (try? Date(expiresAt, strategy: .iso8601)) == nil {
            throw ValidationError(
                "--expires-at must be an ISO 8601 time such as 2026-12-31T00:00:00Z (or with an offset, +01:00); "
                    + "got \"\(expiresAt)\"")
        }
    }

    /// The expiry the options give, seen at `now`: nil without one.
    ///
    /// - Throws: an input `CLIFailure` when it is not after `now` (clients would count the payload expired at once).
    func expiry(now: Date) throws(CLIFailure) -> Date? {
        let date: Date
        if let expiresIn, let seconds = Self.seconds(in: expiresIn) {
            date = now.addingTimeInterval(seconds)
        } else if let expiresAt, let parsed = try? Date(expiresAt, strategy: .iso8601) {
            date = parsed
        } else {
            return nil
        }
        guard date > now else {
            throw CLIFailure.input(
                "the expiry \(date.formatted(Date.ISO8601FormatStyle())) is not in the future; clients would count the "
                    + "payload as expired at once: give a later --expires-at, or --expires-in")
        }
        return date
    }

    /// The seconds a duration such as `7d` stands for; nil when it is not one (or is zero).
    static func seconds(in duration: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = duration.last.flatMap({ units[$0] }), let count = UInt32(duration.dropLast()), count > 0 else {
            return nil
        }
        return TimeInterval(count) * unit
    }
}

import ConfigPorts
import Foundation

/// The misbehaviour a dev server simulates: a slow answer, failures at some rate, a cut body.
struct TroubleSettings: Sendable, Hashable {
    /// What a failing request gets.
    enum Fault: Sendable, Hashable, CustomStringConvertible {
        /// This HTTP status, with `Retry-After` when given.
        case status(Int, retryAfter: Int?)
        /// The document's headers with its full `Content-Length`, half of the body, then the connection closes.
        case truncate

        var description: String {
            switch self {
            case .status(let code, let retryAfter): "status \(code)" + (retryAfter.map { " with Retry-After \($0)" } ?? "")
            case .truncate: "truncated body"
            }
        }
    }

    /// Seconds to wait before answering each request.
    var delay: TimeInterval = 0
    /// The fault, if any.
    var fault: Fault?
    /// The fraction of requests (0...1) that get the fault.
    var failRate: Double = 0
    /// The seed of the fault sequence, so a run can be repeated.
    var seed: UInt64 = 0

    /// Whether any trouble is simulated.
    var isActive: Bool { delay > 0 || (fault != nil && failRate > 0) }

    /// One line saying what is simulated, or nil.
    var summary: String? {
        var parts: [String] = []
        if delay > 0 { parts.append("each answer delayed by \(delay) s") }
        if let fault, failRate > 0 {
            if failRate >= 1 {
                parts.append("every request gets \(fault)")
            } else {
                parts.append(
                    "\(Int((failRate * 100).rounded()))% of requests get \(fault) (seed \(seed); pass --seed \(seed) to repeat)")
            }
        }
        return parts.isEmpty ? nil : "Simulating trouble: " + parts.joined(separator: "; ") + "."
    }
}

/// A deterministic sequence of numbers in `0..<1` (SplitMix64), so `--seed` repeats the same failures.
final class FaultSequence: Sendable {
    private let state: Locked<UInt64>

    /// Starts the sequence at `seed`.
    init(seed: UInt64) { state = Locked(seed) }

    /// The next number in `0..<1`.
    func next() -> Double {
        var z = state.withLock { state in
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

import Foundation

/// Finds the name a person probably meant: the same letters in another case or with other
/// separators, or a name a couple of edits away.
enum NameSimilarity {
    /// The closest of `candidates` to `name`, or nil when none is close enough.
    ///
    /// Close enough means: equal once lower-cased with separators removed, or within an edit
    /// distance of 2 that is also at most a third of the name's length.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let normalised = normalise(name)
        if let same = candidates.first(where: { $0 != name && normalise($0) == normalised }) { return same }
        let limit = min(2, max(1, name.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(normalised, normalise(candidate))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Lower-cased, letters and digits only.
    static func normalise(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// The Levenshtein distance between two strings, by characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}

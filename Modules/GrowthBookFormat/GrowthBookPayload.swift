import ConfigDomain
import Foundation
import Targeting

/// The features and saved groups of a GrowthBook SDK payload, read from its JSON.
public struct GrowthBookPayload: Sendable {
    /// The features by id.
    public var features: [String: GrowthBookFeature]
    /// Saved groups by id: the attribute values each group holds.
    public var savedGroups: [String: [ConfigValue]]
    /// Features left out because strict reading found problems, by feature id.
    public var problems: [String: [RuleProblem]]

    /// Reads `features` (an object of features by id) and `savedGroups` (an object of arrays).
    public init(features: ConfigValue?, savedGroups: ConfigValue?, strictness: Condition.Strictness) {
        var groups: [String: [ConfigValue]] = [:]
        for (id, members) in savedGroups?.objectValue ?? [:] { groups[id] = members.arrayValue ?? [] }
        self.savedGroups = groups
        self.features = [:]
        self.problems = [:]
        for (id, json) in features?.objectValue ?? [:] {
            var reader = GrowthBookReader(key: id, strictness: strictness, savedGroups: groups)
            let feature = reader.feature(json, path: "features.\(id)")
            if strictness == .strict, !reader.problems.isEmpty {
                problems[id] = reader.problems
            } else {
                self.features[id] = feature
            }
        }
    }

    /// Reads an experiment as GrowthBook's `run` takes it (lenient: the SDK's behaviour).
    public static func experiment(_ json: ConfigValue) -> GrowthBookExperiment? {
        var reader = GrowthBookReader(key: "", strictness: .lenient, savedGroups: [:])
        return reader.experiment(json, path: "experiment")
    }
}

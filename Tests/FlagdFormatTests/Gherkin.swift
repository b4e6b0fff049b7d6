import Foundation
import Testing

/// A small reader of the Gherkin the OpenFeature suites use: a feature's background, scenarios,
/// scenario outlines with their `Examples` tables (each row one case), tags, and a step's data table.
/// Doc strings, rules and languages other than English are not used by those files, and not read.
enum Gherkin {
    /// One step: its text after the keyword, and its data table's rows when it has one.
    struct Step: Sendable, Hashable {
        var text: String
        var table: [[String]] = []
    }

    /// One case to run: a scenario, or one row of a scenario outline's examples, with the background's steps first.
    struct Case: Sendable, Hashable, CustomTestStringConvertible {
        /// The feature file's name, for example `evaluation_v2.feature`.
        var file: String
        /// The scenario's name.
        var scenario: String
        /// The examples block's title and the row's number (from 1), for a scenario outline.
        var example: String?
        /// The steps, background first, with the row's values in place of `<name>`.
        var steps: [Step]
        /// The tags of the scenario and of its examples block.
        var tags: [String]

        /// `evaluation_v2.feature: Resolve values [Boolean evaluations #1]`.
        var testDescription: String {
            "\(file): \(scenario)" + (example.map { " [\($0)]" } ?? "")
        }
    }

    /// The cases of the feature text `text`, read from the file named `file`.
    static func cases(in text: String, file: String) -> [Case] {
        var background: [Step] = []
        var cases: [Case] = []
        var pendingTags: [String] = []
        // The scenario being read.
        var scenario: String?
        var isOutline = false
        var steps: [Step] = []
        var scenarioTags: [String] = []
        var inBackground = false
        // The examples block being read.
        var examplesTitle: String?
        var examplesTags: [String] = []
        var header: [String]?
        var rowNumber = 0

        func finishScenario() {
            if let scenario, !isOutline {
                cases.append(Case(file: file, scenario: scenario, example: nil, steps: background + steps, tags: scenarioTags))
            }
            scenario = nil
            steps = []
            examplesTitle = nil
            header = nil
        }

        for rawLine in text.components(separatedBy: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("@") {
                pendingTags += line.split(separator: " ").map(String.init).filter { $0.hasPrefix("@") }
                continue
            }
            if line.hasPrefix("Feature:") {
                pendingTags = []
                continue
            }
            if line.hasPrefix("Background:") {
                finishScenario()
                inBackground = true
                pendingTags = []
                continue
            }
            if line.hasPrefix("Scenario Outline:") || line.hasPrefix("Scenario:") {
                finishScenario()
                inBackground = false
                isOutline = line.hasPrefix("Scenario Outline:")
                scenario = String(line.drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces)
                scenarioTags = pendingTags
                pendingTags = []
                continue
            }
            if line.hasPrefix("Examples:") {
                examplesTitle = String(line.dropFirst("Examples:".count)).trimmingCharacters(in: .whitespaces)
                examplesTags = pendingTags
                pendingTags = []
                header = nil
                rowNumber = 0
                continue
            }
            if line.hasPrefix("|") {
                let cells = row(line)
                if examplesTitle != nil, let scenario {
                    guard let names = header else {
                        header = cells
                        continue
                    }
                    rowNumber += 1
                    let values = Dictionary(zip(names, cells), uniquingKeysWith: { first, _ in first })
                    let title = examplesTitle.map { $0.isEmpty ? "#\(rowNumber)" : "\($0) #\(rowNumber)" } ?? "#\(rowNumber)"
                    cases.append(
                        Case(
                            file: file, scenario: scenario, example: title,
                            steps: background + steps.map { substitute($0, values) }, tags: scenarioTags + examplesTags))
                } else if inBackground, !background.isEmpty {
                    background[background.count - 1].table.append(cells)
                } else if !steps.isEmpty {
                    steps[steps.count - 1].table.append(cells)
                }
                continue
            }
            for keyword in ["Given ", "When ", "Then ", "And ", "But ", "* "] where line.hasPrefix(keyword) {
                let step = Step(text: String(line.dropFirst(keyword.count)))
                if inBackground { background.append(step) } else { steps.append(step) }
                break
            }
        }
        finishScenario()
        return cases
    }

    /// The cells of a table row, with `\|`, `\\` and `\n` unescaped as Gherkin does.
    static func row(_ line: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped {
                switch character {
                case "|": cell.append("|")
                case "n": cell.append("\n")
                case "\\": cell.append("\\")
                default: cell.append("\\"); cell.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
        }
        return cells
    }

    /// `step` with each `<name>` replaced by the row's value.
    private static func substitute(_ step: Step, _ values: [String: String]) -> Step {
        var copy = step
        for (name, value) in values {
            copy.text = copy.text.replacingOccurrences(of: "<\(name)>", with: value)
            copy.table = copy.table.map { $0.map { $0.replacingOccurrences(of: "<\(name)>", with: value) } }
        }
        return copy
    }
}

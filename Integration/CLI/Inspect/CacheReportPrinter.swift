import ConfigDomain
import FileCacheAdapter
import Foundation

/// Prints a file cache's ``CacheDirectoryReport`` for a person, or turns it into JSON.
struct CacheReportPrinter {
    var report: CacheDirectoryReport
    var policy: FreshnessPolicy
    var now: Date
    var console: Console = .shared

    func printText() {
        let count = report.configurations.count
        console.line(
            console.styled("Cache \(report.directory.path)", .bold)
                + ": \(count) configuration\(count == 1 ? "" : "s"); freshness under ttl \(Formatting.span(policy.ttl)), "
                + "stale window \(Formatting.span(staleWindow))")
        if count == 0 { console.line("  (no cached configuration)") }
        for configuration in report.configurations {
            console.line()
            console.line(
                console.styled(configuration.name.map { "\"\($0)\"" } ?? "(unreadable name)", .bold)
                    + "  files \(configuration.stem).*")
            printSnapshot("active", configuration.active, renewal: configuration.renewal)
            if configuration.pending != nil {
                printSnapshot("pending", configuration.pending, renewal: nil)
            } else {
                console.line("  pending   none")
            }
            if configuration.lastGood != nil { printSnapshot("last-good", configuration.lastGood, renewal: nil) }
        }
        console.line()
        console.line(
            console.styled("Quarantined", .bold)
                + " (damaged files moved aside): \(report.quarantined.isEmpty ? "none" : "\(report.quarantined.count)")")
        for file in report.quarantined {
            var text = "  \(file.fileName)  \(Formatting.bytes(file.byteCount))"
            if let date = file.quarantinedAt { text += ", moved aside \(Formatting.age(now.timeIntervalSince(date))) ago" }
            console.line(text)
        }
        if !report.otherFiles.isEmpty {
            console.line(
                console.styled("Other files", .bold)
                    + " (interrupted writes or foreign files): \(report.otherFiles.joined(separator: ", "))")
        }
    }

    /// The cache's files that do not verify: damaged snapshots (active, pending, last good) and renewals.
    var damagedFiles: [String] {
        report.configurations.flatMap { configuration -> [String] in
            var names = [configuration.active, configuration.pending, configuration.lastGood].compactMap { snapshot -> String? in
                guard let snapshot, case .damaged = snapshot.integrity else { return nil }
                return snapshot.fileName
            }
            if let renewal = configuration.renewal, case .damaged = renewal.state { names.append(renewal.fileName) }
            return names
        }
    }

    private var staleWindow: TimeInterval {
        if case .seconds(let seconds) = policy.maxStale { return seconds }
        return 0
    }

    private func printSnapshot(
        _ label: String, _ snapshot: CacheDirectoryReport.Snapshot?, renewal: CacheDirectoryReport.Renewal?
    ) {
        let pad = "  " + label.padding(toLength: 10, withPad: " ", startingAt: 0)
        let indent = String(repeating: " ", count: 12)
        guard let snapshot else {
            console.line("\(pad)none")
            return
        }
        guard case .intact = snapshot.integrity, let metadata = snapshot.metadata else {
            var reason = "damaged"
            if case .damaged(let error) = snapshot.integrity { reason = "DAMAGED: \(error.message)" }
            console.line(
                "\(pad)" + console.styled(reason, .red, .bold)
                    + "  (\(snapshot.fileName), \(Formatting.bytes(snapshot.fileSize)))")
            return
        }
        let age = now.timeIntervalSince(metadata.fetchedAt)
        let freshness = policy.freshness(fetchedAt: metadata.fetchedAt, now: now)
        let freshnessColor: Console.Style = freshness == .fresh ? .green : freshness == .stale ? .yellow : .red
        console.line(
            "\(pad)fetched \(Formatting.timestamp(metadata.fetchedAt)) (\(Formatting.age(age)) ago), "
                + console.styled(freshness.rawValue, freshnessColor) + untilText(metadata.fetchedAt, freshness))
        console.line(
            "\(indent)etag \(metadata.validators.etag ?? "none"), last-modified \(metadata.validators.lastModified ?? "none")")
        console.line(
            "\(indent)payload \(Formatting.bytes(snapshot.payloadSize ?? 0)), file \(Formatting.bytes(snapshot.fileSize)), "
                + console.styled("checksum ok", .green) + ", content \(metadata.contentHash)")
        console.line("\(indent)source \(metadata.source)")
        if let renewal {
            let state: String
            switch renewal.state {
            case .current: state = "current: the last 304 renewed this snapshot without rewriting its payload"
            case .stale: state = "stale: left by an interrupted store, ignored"
            case .damaged(let error): state = "damaged, ignored: \(error.message)"
            }
            console.line("\(indent)renewal \(state)")
        }
        if label == "pending" { console.line("\(indent)waits for activation at the next launch") }
        if label == "last-good" { console.line("\(indent)values served as last good, kept for the next launch") }
    }

    private func untilText(_ fetchedAt: Date, _ freshness: Freshness) -> String {
        switch freshness {
        case .fresh: return " for \(Formatting.span(policy.staleAt(fetchedAt: fetchedAt).timeIntervalSince(now)))"
        case .stale:
            if let expires = policy.expiresAt(fetchedAt: fetchedAt) {
                return ", expires in \(Formatting.span(expires.timeIntervalSince(now)))"
            }
            return ""
        case .expired: return ""
        }
    }

    /// The report as a JSON value.
    func json() -> ConfigValue {
        .object([
            "directory": .string(report.directory.path),
            "ttl": .double(policy.ttl),
            "maxStale": .double(staleWindow),
            "configurations": .array(
                report.configurations.map { configuration in
                    var members: [String: ConfigValue] = [
                        "name": .optional(configuration.name), "stem": .string(configuration.stem),
                        "active": snapshotJSON(configuration.active),
                        "pending": snapshotJSON(configuration.pending),
                    ]
                    if configuration.lastGood != nil { members["lastGood"] = snapshotJSON(configuration.lastGood) }
                    if let renewal = configuration.renewal {
                        let state: String
                        switch renewal.state {
                        case .current: state = "current"
                        case .stale: state = "stale"
                        case .damaged: state = "damaged"
                        }
                        members["renewal"] = .string(state)
                    }
                    return .object(members)
                }),
            "quarantined": .array(
                report.quarantined.map { file in
                    .object([
                        "file": .string(file.fileName), "bytes": .int(Int64(file.byteCount)),
                        "quarantinedAt": .optional(file.quarantinedAt.map(Formatting.timestamp)),
                    ])
                }),
            "otherFiles": .array(report.otherFiles.map { .string($0) }),
        ])
    }

    private func snapshotJSON(_ snapshot: CacheDirectoryReport.Snapshot?) -> ConfigValue {
        guard let snapshot else { return .null }
        var members: [String: ConfigValue] = ["file": .string(snapshot.fileName), "fileBytes": .int(Int64(snapshot.fileSize))]
        switch snapshot.integrity {
        case .intact: members["integrity"] = .string("intact")
        case .damaged(let error):
            members["integrity"] = .string("damaged")
            members["problem"] = .string(error.message)
        }
        if let metadata = snapshot.metadata {
            members["fetchedAt"] = .string(Formatting.timestamp(metadata.fetchedAt))
            members["ageSeconds"] = .rounded(now.timeIntervalSince(metadata.fetchedAt))
            members["freshness"] = .string(policy.freshness(fetchedAt: metadata.fetchedAt, now: now).rawValue)
            members["etag"] = .optional(metadata.validators.etag)
            members["lastModified"] = .optional(metadata.validators.lastModified)
            members["contentHash"] = .string(metadata.contentHash.description)
            members["source"] = .string(metadata.source)
            members["renewed"] = .bool(snapshot.isRenewed)
        }
        if let size = snapshot.payloadSize { members["payloadBytes"] = .int(Int64(size)) }
        return .object(members)
    }
}

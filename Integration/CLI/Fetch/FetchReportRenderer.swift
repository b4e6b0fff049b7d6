import ConfigDomain
import Foundation
import RemoteConfig

/// Prints a ``FetchReport`` for a person, or turns it into JSON.
struct FetchReportRenderer {
    var report: FetchReport
    var manifestGiven: Bool
    var ttl: TimeInterval
    var maxStale: TimeInterval
    var console: Console = .shared

    /// The widest value shown in the table; `--json` shows values whole.
    static let valueWidth = 60

    func printText() {
        console.line(console.styled("GET \(report.url)", .bold))
        printExchange()
        printCache()
        printValues()
    }

    private func printExchange() {
        if report.skippedBecauseFresh {
            console.line("no request: the cached snapshot is fresh under --ttl \(Formatting.span(ttl))")
            return
        }
        guard let exchange = report.exchange else {
            if let error = report.error { console.line(console.styled("error", .red, .bold) + "  \(error)") }
            return
        }
        let sent = exchange.sent.isEmpty ? "unconditional request" : "sent " + describe(exchange.sent, asRequest: true)
        switch exchange.outcome {
        case .modified(let payload):
            console.line(
                console.styled("200 OK", .green, .bold)
                    + "  \(Formatting.bytes(payload.bytes.count)) in \(Formatting.duration(exchange.duration))  (\(sent))")
            field("etag", payload.validators.etag ?? "none")
            field("last-modified", payload.validators.lastModified ?? "none")
            field("content-type", payload.contentType ?? "none")
        case .notModified(let validators):
            console.line(
                console.styled("304 Not Modified", .cyan, .bold)
                    + "  0 B in \(Formatting.duration(exchange.duration))  (\(sent))")
            field("etag", validators.etag ?? exchange.sent.etag ?? "none")
            field("last-modified", validators.lastModified ?? exchange.sent.lastModified ?? "none")
        case .failed(let error):
            let status = error.kind.httpStatus.map { " (HTTP \($0))" } ?? ""
            console.line(
                console.styled("error", .red, .bold)
                    + "  \(error.kind.name)\(status) after \(Formatting.duration(exchange.duration))  (\(sent))")
            field("message", error.message)
            field("retry", retryText(error.retry))
        }
        if let error = report.error, !error.isFetchFailure {
            console.line(console.styled("error", .red, .bold) + "  \(error)")
        }
    }

    private func printCache() {
        guard let location = report.cacheLocation else { return }
        var before = report.cacheBeforeWord
        switch report.cacheBefore {
        case .hit(let fetchedAt, let freshness):
            before += " (\(freshness), fetched \(Formatting.age(Date().timeIntervalSince(fetchedAt))) ago)"
        case .unreadable(let message):
            before += " (\(message); treated as a miss)"
        default: break
        }
        let action = report.cacheAction.map { " → \($0)" } ?? ""
        console.line("cache  \(location.directory), configuration \"\(location.name)\": \(before)\(action)")
    }

    private func printValues() {
        console.line()
        guard !report.rows.isEmpty else {
            console.line(
                "No values: \(report.error == nil ? "the payload is an empty object" : "nothing was fetched or cached").")
            return
        }
        var table = TextTable(headers: ["KEY", "TYPE", "VALUE", "FROM"])
        for row in report.rows {
            var from = row.from
            if !row.rejected.isEmpty { from += " (\(row.rejected.count) rejected)" }
            table.append([row.key, row.type, Formatting.truncated(row.value, to: Self.valueWidth), from])
        }
        for line in table.lines(styleHeader: { console.styled($0, .bold) }) { console.line(line) }
        let rejections = report.rows.flatMap(\.rejected)
        if !rejections.isEmpty {
            console.line()
            console.line(console.styled("Rejected values", .yellow, .bold) + " (each key fell through to the next layer):")
            for rejection in rejections {
                console.line("  \(rejection.key): value \(rejection.value) rejected by \(rejection.rule): \(rejection.reason)")
            }
        }
        if manifestGiven {
            let undeclared = report.rows.filter { !$0.declared }.map(\.key)
            if !undeclared.isEmpty {
                console.line()
                console.line("Not in the manifest (the app ignores them): \(undeclared.joined(separator: ", "))")
            }
        }
    }

    private func field(_ name: String, _ value: String) {
        console.line("  " + name.padding(toLength: 15, withPad: " ", startingAt: 0) + value)
    }

    private func describe(_ validators: Validators, asRequest: Bool) -> String {
        var parts: [String] = []
        if let etag = validators.etag { parts.append("\(asRequest ? "if-none-match" : "etag") \(etag)") }
        if let date = validators.lastModified { parts.append("\(asRequest ? "if-modified-since" : "last-modified") \(date)") }
        return parts.joined(separator: ", ")
    }

    private func retryText(_ advice: RetryAdvice) -> String {
        switch advice {
        case .doNotRetry: return "do not retry (retrying will not help until something changes)"
        case .backoff: return "retry with backoff"
        case .after(let date):
            let wait = date.timeIntervalSinceNow
            return "after \(Formatting.timestamp(date))" + (wait > 0 ? " (in \(Formatting.span(wait.rounded(.up))))" : "")
        }
    }

    // MARK: JSON

    /// The report as a JSON value.
    func json() -> ConfigValue {
        var members: [String: ConfigValue] = [
            "url": .string(report.url),
            "status": report.httpStatus.map { .int(Int64($0)) } ?? .null,
            "outcome": .string(outcomeWord),
            "skippedBecauseFresh": .bool(report.skippedBecauseFresh),
            "freshness": .optional(report.finalFreshness?.rawValue),
            "values": .array(report.rows.map(rowJSON)),
        ]
        if let exchange = report.exchange {
            members["milliseconds"] = .rounded(exchange.duration * 1000)
            members["sent"] = validatorsJSON(exchange.sent)
            switch exchange.outcome {
            case .modified(let payload):
                members["bytes"] = .int(Int64(payload.bytes.count))
                members["validators"] = validatorsJSON(payload.validators)
                members["contentType"] = .optional(payload.contentType)
            case .notModified(let validators):
                members["bytes"] = .int(0)
                members["validators"] = validatorsJSON(validators)
            case .failed: break
            }
        }
        if let error = report.error { members["error"] = errorJSON(error) }
        if let location = report.cacheLocation {
            var cache: [String: ConfigValue] = [
                "directory": .string(location.directory), "name": .string(location.name),
                "before": .string(report.cacheBeforeWord), "action": .optional(report.cacheAction),
            ]
            if case .hit(let fetchedAt, let freshness) = report.cacheBefore {
                cache["fetchedAt"] = .string(Formatting.timestamp(fetchedAt))
                cache["freshnessBefore"] = .string(freshness.rawValue)
            }
            members["cache"] = .object(cache)
        }
        return .object(members)
    }

    private var outcomeWord: String {
        if report.skippedBecauseFresh { return "skipped" }
        if report.error != nil { return "error" }
        switch report.exchange?.outcome {
        case .modified?: return "modified"
        case .notModified?: return "notModified"
        default: return "none"
        }
    }

    private func validatorsJSON(_ validators: Validators) -> ConfigValue {
        .object(["etag": .optional(validators.etag), "lastModified": .optional(validators.lastModified)])
    }

    private func errorJSON(_ error: ConfigError) -> ConfigValue {
        var members: [String: ConfigValue] = [
            "kind": .string(error.kindName), "message": .string(error.description), "retryable": .bool(error.isRetryable),
        ]
        if case .fetch(let fetchError) = error {
            members["status"] = fetchError.kind.httpStatus.map { .int(Int64($0)) } ?? .null
            switch fetchError.retry {
            case .doNotRetry: members["retry"] = .string("doNotRetry")
            case .backoff: members["retry"] = .string("backoff")
            case .after(let date):
                members["retry"] = .string("after")
                members["retryAfter"] = .string(Formatting.timestamp(date))
            }
        }
        return .object(members)
    }

    private func rowJSON(_ row: FetchReport.Row) -> ConfigValue {
        let value: ConfigValue = (try? JSONParser().parse(row.value)) ?? .string(row.value)
        return .object([
            "key": .string(row.key), "type": .string(row.type), "value": value, "from": .string(row.from),
            "declared": .bool(row.declared),
            "rejected": .array(
                row.rejected.map { rejection in
                    .object([
                        "value": .string(rejection.value), "rule": .string(rejection.rule), "reason": .string(rejection.reason),
                    ])
                }),
        ])
    }
}

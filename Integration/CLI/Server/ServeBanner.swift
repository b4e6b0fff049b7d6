import Foundation

/// What `serve` prints once it listens: for each document served, the URLs that answer for it and
/// nothing else — the document, its OFREP base URL and its event stream.
///
/// A single file answers at `/<name>` and `/`, OFREP at `/ofrep/v1/…` and push at `/events`; a file
/// in a folder answers at `/<name>.json`, OFREP at `/<name>.json/ofrep/v1/…` and push at
/// `/events/<name>.json`.
struct ServeBanner {
    /// The documents.
    let library: DocumentLibrary
    /// The listening server.
    let server: DevConfigServer

    /// Prints the banner.
    func print(console: Console) {
        for line in render({ text, styles in console.styled(text, styles) }) { console.line(line) }
    }

    private func render(_ style: (String, [Console.Style]) -> String) -> [String] {
        let base = "http://127.0.0.1:\(server.port)"
        let documents = library.documents
        var lines: [String] = []
        if library.isDirectory {
            lines.append("Serving \(library.root.path) on \(style(base, [.bold]))")
            if documents.isEmpty { lines.append("No *.json file yet; add one and it is served at once at /<name>.json.") }
            for document in documents {
                let url = server.url(document.path)
                lines.append("  \(style(url, [.cyan])) (\(document.dialect.displayName))")
                lines.append("    OFREP: POST \(url)/ofrep/v1/evaluate/flags (OFREP_ENDPOINT=\(url))")
                lines.append("    push: \(server.url("/events" + document.path))")
            }
        } else {
            let format = documents.first.map { " (\($0.dialect.displayName))" } ?? ""
            lines.append("Serving \(library.root.path)\(format) on \(style(base, [.bold]))")
            for document in documents {
                lines.append("  \(style(server.url(document.path), [.cyan])) (also \(base)/)")
                lines.append("  OFREP: POST \(base)/ofrep/v1/evaluate/flags (OFREP_ENDPOINT=\(base))")
                lines.append("  push: \(base)/events")
            }
        }
        return lines
    }
}

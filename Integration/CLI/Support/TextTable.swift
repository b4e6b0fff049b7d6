import Foundation

/// A plain-text table with a header row, columns padded to their widest cell.
struct TextTable {
    /// The column titles.
    var headers: [String]
    /// The rows; each has one cell per column.
    var rows: [[String]] = []

    /// Adds a row.
    mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as lines, the header styled by `styleHeader`, two spaces between columns.
    func lines(styleHeader: (String) -> String = { $0 }) -> [String] {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func render(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                parts.append(isLast ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0))
            }
            return parts.joined(separator: "  ")
        }
        return [styleHeader(render(headers))] + rows.map(render)
    }
}

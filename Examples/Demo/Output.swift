import Foundation

/// Writes the demo's narration: styled on a terminal, plain when piped, silent with `--json`.
final class Output: @unchecked Sendable {
    let quiet: Bool
    let styled: Bool

    init(quiet: Bool) {
        self.quiet = quiet
        styled = !quiet && isatty(1) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    private func style(_ text: String, _ code: String) -> String { styled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    func heading(_ text: String) {
        guard !quiet else { return }
        print("")
        print(style("== \(text)", "1"))
    }

    func line(_ text: String) { if !quiet { print("  " + text) } }
    func good(_ text: String) { line(style("✓", "32") + " " + text) }
    func bad(_ text: String) { line(style("✗", "31") + " " + text) }
    func note(_ text: String) { line(style("•", "33") + " " + text) }

    /// A progress bar: redrawn in place on a terminal, a line per quarter when piped.
    func progress(_ label: String, done: Int, total: Int) {
        guard !quiet, total > 0 else { return }
        if styled {
            let width = 30
            let filled = done * width / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            print("\r  \(label) \(bar) \(done)/\(total)", terminator: done == total ? "\n" : "")
            fflush(nil)
        } else if done == total || (done * 4 / total) != ((done - 1) * 4 / total) {
            print("  \(label): \(done)/\(total)")
        }
    }

    func table(_ header: [String], _ rows: [[String]]) {
        guard !quiet else { return }
        let widths = header.indices.map { column in
            max(header[column].count, rows.map { $0[column].count }.max() ?? 0)
        }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == 0 ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }
        line(style(render(header), "1"))
        for row in rows { line(render(row)) }
    }
}

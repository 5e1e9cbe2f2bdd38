import ModelLintHistory

/// Phrasing shared by the history rules.
package enum HistoryMessages {
    /// ` (a; b; c)`, at most five changes named.
    package static func list(_ changes: [String]) -> String {
        guard !changes.isEmpty else { return "" }
        let shown = changes.prefix(5).joined(separator: "; ")
        return " (\(shown)\(changes.count > 5 ? "; and \(changes.count - 5) more" : ""))"
    }
}

extension ShippedHistory.Source {
    package var isAgainst: Bool { if case .against = self { return true } else { return false } }
}

/// Turns a report into bytes in one format. Reporters know diagnostics and, as data, rule descriptions;
/// never a rule's logic.
public protocol Reporter: Sendable {
    func render(_ report: LintReport) -> String
}

/// Paths in machine formats are relative to the repository root (GitHub and code scanning resolve them there).
public struct PathRelativizer: Sendable {
    /// Absolute root, and the working directory the diagnostics' paths are relative to.
    public var root: String
    public var workingDirectory: String

    public init(root: String, workingDirectory: String) {
        self.root = root
        self.workingDirectory = workingDirectory
    }

    public func path(_ displayed: String) -> String {
        let absolute = PathTools.absolute(displayed, relativeTo: workingDirectory)
        return PathTools.relative(absolute, to: root) ?? absolute
    }
}

enum XMLEscape {
    /// Attribute and text content: markup characters, quotes, and control characters as references.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20: out += "?"  // not representable in XML 1.0
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

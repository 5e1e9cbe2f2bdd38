import Foundation

/// What the app's code and its project generator say about the model, read as text: string literals only,
/// never evaluated, nothing guessed. Staged migration names a model by its versionChecksum
/// (`NSManagedObjectModelReference(…, versionChecksum: "…")`) or loads a compiled version by name (`"X.mom"`,
/// `forResource: "X", withExtension: "mom"`, `NSManagedObjectModelReference(name: "X", …)`); a Tuist
/// `Project.swift` may hard-code a current version (`.coreDataModel("M.xcdatamodeld", currentVersion: "M 3")`).
public struct SourceReference: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case checksum(String)
        case versionName(String)
        /// A generator's hard-coded current version for the bundle at this path (as written).
        case generatedCurrentVersion(bundle: String, version: String)
    }

    public var kind: Kind
    public var location: SourceLocation

    /// Swift files larger than this are not scanned (generated code, vendored blobs).
    public static let sizeLimit = 2 << 20

    // NSRegularExpression is immutable and documented thread-safe for matching.
    nonisolated(unsafe) private static let patterns: [(NSRegularExpression, (String, String?) -> Kind)] = {
        func re(_ p: String) -> NSRegularExpression { try! NSRegularExpression(pattern: p) }
        return [
            (re(#"versionChecksum:\s*"([A-Za-z0-9+/=]{16,})""#), { a, _ in .checksum(a) }),
            (re(#""([^"\\\n]{1,200})\.mom""#), { a, _ in .versionName(a) }),
            (re(#"forResource:\s*"([^"\\\n]{1,200})"\s*,\s*withExtension:\s*"mom""#), { a, _ in .versionName(a) }),
            (re(#"NSManagedObjectModelReference\(\s*name:\s*"([^"\\\n]{1,200})""#), { a, _ in .versionName(a) }),
            (re(#"[cC]oreDataModel\(\s*"([^"\\\n]{1,400}\.xcdatamodeld)"\s*,\s*currentVersion:\s*"([^"\\\n]{1,200})""#), { a, b in .generatedCurrentVersion(bundle: a, version: b ?? "") }),
        ]
    }()

    /// Every reference in a file's text, in order.
    public static func scan(_ text: String, path: String) -> [SourceReference] {
        // Most files mention none of these: skip them without running a pattern.
        guard text.contains("versionChecksum") || text.contains(".mom") || text.contains("\"mom\"")
                || text.contains("NSManagedObjectModelReference") || text.contains("oreDataModel(") else { return [] }
        let ns = text as NSString
        var found: [(Int, SourceReference)] = []
        for (pattern, make) in patterns {
            for match in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                let first = ns.substring(with: match.range(at: 1))
                let second = match.numberOfRanges > 2 && match.range(at: 2).location != NSNotFound ? ns.substring(with: match.range(at: 2)) : nil
                let prefix = ns.substring(to: match.range.location)
                let line = prefix.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                let column = (prefix.split(separator: "\n", omittingEmptySubsequences: false).last?.count ?? 0) + 1
                found.append((match.range.location, SourceReference(kind: make(first, second), location: SourceLocation(file: path, line: line, column: column))))
            }
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

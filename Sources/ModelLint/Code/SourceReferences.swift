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

    // NSRegularExpression is immutable and documented thread-safe for matching. Each pattern runs only on the
    // lines holding its keyword: regular expressions over whole files cost more than the rest of a check.
    nonisolated(unsafe) private static let patterns: [(keyword: String, NSRegularExpression, (String, String?) -> Kind)] = {
        func re(_ p: String) -> NSRegularExpression { try! NSRegularExpression(pattern: p) }
        return [
            ("versionChecksum", re(#"versionChecksum:\s*"([A-Za-z0-9+/=]{16,})""#), { a, _ in .checksum(a) }),
            (".mom\"", re(#""([^"\\\n]{1,200})\.mom""#), { a, _ in .versionName(a) }),
            ("\"mom\"", re(#"forResource:\s*"([^"\\\n]{1,200})"\s*,\s*withExtension:\s*"mom""#), { a, _ in .versionName(a) }),
            ("NSManagedObjectModelReference", re(#"NSManagedObjectModelReference\(\s*name:\s*"([^"\\\n]{1,200})""#), { a, _ in .versionName(a) }),
            ("oreDataModel(", re(#"[cC]oreDataModel\(\s*"([^"\\\n]{1,400}\.xcdatamodeld)"\s*,\s*currentVersion:\s*"([^"\\\n]{1,200})""#), { a, b in .generatedCurrentVersion(bundle: a, version: b ?? "") }),
        ]
    }()

    /// Every reference in a file's text, in order (one literal per line is what code holds; a call split over
    /// lines is not read).
    public static func scan(_ text: String, path: String) -> [SourceReference] {
        scan(bytes: Array(text.utf8), path: path)
    }

    /// The same, on the file's bytes: keywords are found by byte search (Foundation's string search is slow on
    /// Linux), and only the lines holding one become strings.
    public static func scan(bytes: [UInt8], path: String) -> [SourceReference] {
        let present = patterns.filter { ByteSearch.firstIndex(of: Array($0.keyword.utf8), in: bytes) != nil }
        guard !present.isEmpty else { return [] }
        // Line starts once, then only the lines holding a keyword become strings.
        var starts = [0]
        ByteSearch.forEach(UInt8(ascii: "\n"), in: bytes) { starts.append($0 + 1); return true }
        func line(containing offset: Int) -> Int {
            var low = 0, high = starts.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if starts[mid] <= offset { low = mid } else { high = mid - 1 }
            }
            return low
        }
        var lines: [Int: [Int]] = [:]  // line index -> the patterns whose keyword it holds
        for (p, pattern) in present.enumerated() {
            let keyword = Array(pattern.keyword.utf8)
            var from = 0
            while let at = ByteSearch.firstIndex(of: keyword, in: bytes, from: from) {
                let l = line(containing: at)
                if lines[l]?.contains(p) != true { lines[l, default: []].append(p) }
                from = at + keyword.count
            }
        }
        var found: [SourceReference] = []
        for l in lines.keys.sorted() {
            let end = l + 1 < starts.count ? starts[l + 1] - 1 : bytes.count
            let lineText = String(decoding: bytes[starts[l]..<max(starts[l], end)], as: UTF8.self), ns = lineText as NSString
            var onLine: [(Int, SourceReference)] = []
            for p in lines[l]! {
                let (_, pattern, make) = present[p]
                for match in pattern.matches(in: lineText, range: NSRange(location: 0, length: ns.length)) {
                    let first = ns.substring(with: match.range(at: 1))
                    let second = match.numberOfRanges > 2 && match.range(at: 2).location != NSNotFound ? ns.substring(with: match.range(at: 2)) : nil
                    let column = ns.substring(to: match.range.location).count + 1
                    onLine.append((column, SourceReference(kind: make(first, second), location: SourceLocation(file: path, line: l + 1, column: column))))
                }
            }
            found += onLine.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return found
    }
}

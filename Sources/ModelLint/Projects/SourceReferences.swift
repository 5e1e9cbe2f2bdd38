import Foundation
import ModelLintSupport
import ModelLintModel

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
        /// Code that migrates a store step by step: `NSStagedMigrationManager(…)`, or an `NSMigrationManager(…)` in
        /// a file that calls `migrateStore(from:…)` (the first of a file; the API's name).
        case stepMigrator(String)
        /// Code that loads a compiled bundle by name (`NSPersistentContainer(name: "X")`,
        /// `forResource: "X", withExtension: "momd"`); "" for `NSManagedObjectModel.mergedModel(from:)`, which loads
        /// every bundle of the app.
        case modelName(String)
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// Swift files larger than this are not scanned (generated code, vendored blobs).
    public static let sizeLimit = 2 << 20

    /// A literal after `prefix` (then optional spaces), on one line: `prefix "text"` -> text. Escapes and line
    /// breaks end the match: only plain literals are read.
    package static func literal(after prefix: [UInt8], in line: ArraySlice<UInt8>, from start: Int) -> (
        text: String, end: Int
    )? {
        var i = start + prefix.count
        while i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
        guard i < line.endIndex, line[i] == UInt8(ascii: "\"") else { return nil }
        let open = i + 1
        var close = open
        // Scans stop past the longest literal read, so a long line costs its length, not length x literals.
        while close < line.endIndex, close - open <= 400, line[close] != UInt8(ascii: "\""),
            line[close] != UInt8(ascii: "\\")
        { close += 1 }
        guard close < line.endIndex, line[close] == UInt8(ascii: "\""), close > open, close - open <= 400 else {
            return nil
        }
        return (String(decoding: line[open..<close], as: UTF8.self), close + 1)
    }

    package static func occurrences(of pattern: [UInt8], in line: ArraySlice<UInt8>) -> [Int] {
        var found: [Int] = []
        var i = line.startIndex
        while i + pattern.count <= line.endIndex {
            if line[i] == pattern[0] && line[i..<(i + pattern.count)].elementsEqual(pattern) {
                found.append(i)
                i += pattern.count
            } else {
                i += 1
            }
        }
        return found
    }

    /// The references on one line, with their byte offsets.
    package static func references(in line: ArraySlice<UInt8>) -> [(offset: Int, kind: Kind)] {
        var found: [(Int, Kind)] = []
        let checksum = Array("versionChecksum:".utf8)
        for at in occurrences(of: checksum, in: line) {
            if let (text, _) = literal(after: checksum, in: line, from: at), text.count >= 16,
                text.utf8.allSatisfy({ $0.isBase64 })
            {
                found.append((at, .checksum(text)))
            }
        }
        // "X.mom": a literal ending in .mom, read back to its opening quote.
        for at in occurrences(of: Array(".mom\"".utf8), in: line) {
            var open = at - 1
            while open >= line.startIndex, at - open <= 201, line[open] != UInt8(ascii: "\""),
                line[open] != UInt8(ascii: "\\")
            { open -= 1 }
            guard open >= line.startIndex, line[open] == UInt8(ascii: "\""), at > open + 1, at - open <= 201,
                open == line.startIndex || line[open - 1] != UInt8(ascii: "\\")
            else { continue }
            found.append((open, .versionName(String(decoding: line[(open + 1)..<at], as: UTF8.self))))
        }
        let resource = Array("forResource:".utf8)
        for at in occurrences(of: resource, in: line) {
            guard let (name, end) = literal(after: resource, in: line, from: at) else { continue }
            var i = end
            while i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: ",") { i += 1 }
            let ext = Array("withExtension:".utf8)
            guard i + ext.count <= line.endIndex, line[i..<(i + ext.count)].elementsEqual(ext) else { continue }
            switch literal(after: ext, in: line, from: i)?.text {
            case "mom": found.append((at, .versionName(name)))
            case "momd": found.append((at, .modelName(name)))
            default: break
            }
        }
        for container in ["NSPersistentContainer(name:", "NSPersistentCloudKitContainer(name:"] {
            let call = Array(container.utf8)
            for at in occurrences(of: call, in: line) {
                if let (name, _) = literal(after: call, in: line, from: at) { found.append((at, .modelName(name))) }
            }
        }
        if let at = occurrences(of: Array("mergedModel(from".utf8), in: line).first {
            found.append((at, .modelName("")))
        }
        // A call, not a comment or a string about one: nothing before it on the line opens a comment, and the
        // quotes before it are balanced.
        for api in ["NSStagedMigrationManager", "NSMigrationManager"] {
            guard let at = occurrences(of: Array((api + "(").utf8), in: line).first else { continue }
            let before = line[line.startIndex..<at]
            let code = before.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            guard occurrences(of: Array("//".utf8), in: before).isEmpty, code.first != UInt8(ascii: "*"),
                !code.starts(with: Array("/*".utf8)), before.filter({ $0 == UInt8(ascii: "\"") }).count % 2 == 0
            else { continue }
            found.append((at, .stepMigrator(api)))
        }
        let reference = Array("NSManagedObjectModelReference(".utf8)
        for at in occurrences(of: reference, in: line) {
            var i = at + reference.count
            while i < line.endIndex, line[i] == UInt8(ascii: " ") { i += 1 }
            let label = Array("name:".utf8)
            guard i + label.count <= line.endIndex, line[i..<(i + label.count)].elementsEqual(label),
                let (name, _) = literal(after: label, in: line, from: i)
            else { continue }
            found.append((at, .versionName(name)))
        }
        let model = Array("oreDataModel(".utf8)
        for at in occurrences(of: model, in: line)
        where at > line.startIndex && (line[at - 1] == UInt8(ascii: "c") || line[at - 1] == UInt8(ascii: "C")) {
            guard let (bundle, end) = literal(after: [], in: line, from: at + model.count),
                bundle.hasSuffix(".xcdatamodeld")
            else { continue }
            var i = end
            while i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: ",") { i += 1 }
            let label = Array("currentVersion:".utf8)
            guard i + label.count <= line.endIndex, line[i..<(i + label.count)].elementsEqual(label),
                let (version, _) = literal(after: label, in: line, from: i)
            else { continue }
            found.append((at - 1, .generatedCurrentVersion(bundle: bundle, version: version)))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    package static let keywords: [[UInt8]] = [
        "versionChecksum", ".mom\"", "forResource", "NSManagedObjectModelReference", "oreDataModel(",
        "MigrationManager(", "Container(name:", "mergedModel(from",
    ].map { Array($0.utf8) }

    /// Every reference in a file's text, in order (one literal per line is what code holds; a call split over
    /// lines is not read).
    public static func scan(_ text: String, path: String) -> [SourceReference] {
        scan(bytes: Array(text.utf8), path: path)
    }

    /// The same, on the file's bytes: keywords by byte search, and only the lines holding one are read further.
    public static func scan(bytes: [UInt8], path: String) -> [SourceReference] {
        let present = keywords.filter { ByteSearch.firstIndex(of: $0, in: bytes) != nil }
        guard !present.isEmpty else { return [] }
        var starts = [0]
        ByteSearch.forEach(UInt8(ascii: "\n"), in: bytes) {
            starts.append($0 + 1)
            return true
        }
        func line(containing offset: Int) -> Int {
            var low = 0
            var high = starts.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if starts[mid] <= offset { low = mid } else { high = mid - 1 }
            }
            return low
        }
        var lines = Set<Int>()
        for keyword in present {
            var from = 0
            while let at = ByteSearch.firstIndex(of: keyword, in: bytes, from: from) {
                lines.insert(line(containing: at))
                from = at + keyword.count
            }
        }
        var found: [SourceReference] = []
        for l in lines.sorted() {
            let end = l + 1 < starts.count ? starts[l + 1] - 1 : bytes.count
            let slice = bytes[starts[l]..<max(starts[l], end)]
            // Columns in characters, counted once along the line (references come in offset order).
            var counted = starts[l]
            var column = 1
            for (offset, kind) in references(in: slice) {
                column += String(decoding: bytes[counted..<offset], as: UTF8.self).count
                counted = offset
                found.append(
                    SourceReference(kind: kind, location: SourceLocation(file: path, line: l + 1, column: column)))
            }
        }
        // One step migrator per file: the first; a migration manager only where the file migrates a store with it.
        let migratesStores = ByteSearch.firstIndex(of: Array("migrateStore(".utf8), in: bytes) != nil
        var migrator = false
        return found.filter { reference in
            guard case .stepMigrator(let api) = reference.kind else { return true }
            guard !migrator, api == "NSStagedMigrationManager" || migratesStores else { return false }
            migrator = true
            return true
        }
    }
}

private extension UInt8 {
    var isBase64: Bool {
        (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
            || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || self == UInt8(ascii: "+")
            || self == UInt8(ascii: "/") || self == UInt8(ascii: "=")
    }
}

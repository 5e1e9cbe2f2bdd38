import Foundation
import XCTest
import ModelLintModel
import ModelLintProjects
import ModelLintSupport

/// The code scan's cache is one record per Swift file of a tree, read by every run (a pre-commit hook's included):
/// what it stores comes back exactly, and a cache file is untrusted like any other.
final class SourceReferenceCacheTests: XCTestCase {
    private func reference(_ kind: SourceReference.Kind, _ line: Int?, _ column: Int?) -> SourceReference {
        SourceReference(kind: kind, location: SourceLocation(file: "", line: line, column: column))
    }

    private var stored: [String: SourceReferenceCache.Entry] {
        let transformer = AppTransformer(
            className: "PaletteTransformer", base: "NSSecureUnarchiveFromDataTransformer",
            names: ["PaletteTransformer", "Palette\tTab"], allowedClasses: ["UIColor", "NSArray"])
        return [
            "/app/A.swift": .init(
                identity: [64769, 1234, 503, 1_700_000_000, 5, 1_700_000_001, 999_999_999],
                references: [], mentionsSwiftData: false),
            "/app/Schemas/B \u{E9}.swift": .init(
                identity: [1.8446744073709552e19, 9_007_199_254_740_992, 0, -86400, 0, 0, 1],
                references: [
                    reference(.checksum("abc"), 3, 9), reference(.versionName("Shop 2"), 4, nil),
                    reference(.generatedCurrentVersion(bundle: "Shop", version: "Shop \"3\"\n"), nil, nil),
                    reference(.stepMigrator("NSStagedMigrationManager"), 9, 12), reference(.modelName(""), 1, 1),
                    reference(.transformer(transformer), 5, nil),
                    reference(
                        .transformer(
                            AppTransformer(className: "T", base: "ValueTransformer", names: [], allowedClasses: nil)),
                        7, 2),
                ], mentionsSwiftData: true),
            "/app/C.swift": .init(identity: [1, 2, 3, 4, 5, 6, 7], references: [], mentionsSwiftData: true),
        ]
    }

    private func entryFile(in folder: URL) throws -> URL {
        let kind = folder.appendingPathComponent("swift-references")
        let names = try FileManager.default.contentsOfDirectory(atPath: kind.path)
        XCTAssertEqual(names.count, 1)
        return kind.appendingPathComponent(names[0])
    }

    func testWhatIsStoredComesBackExactlyAndPathsWithLineBreaksOrTabsAreLeftOut() throws {
        let folder = try makeTemporaryDirectory(self)
        let cache = ResultCache(folder: folder.path)
        let tree = "/app\n/other"
        var entries = stored
        let plain = entries["/app/C.swift"]!
        entries["/app/Tab\there.swift"] = plain
        entries["/app/Line\nbreak.swift"] = plain
        SourceReferenceCache(cache: cache, tree: tree, mentionWords: ["@Model"]).store(entries)
        XCTAssertEqual(SourceReferenceCache(cache: cache, tree: tree, mentionWords: ["@Model"]).entries, stored)
        // Another tree's, another modellint's, or one whose files were judged by other words, is not this one.
        XCTAssertEqual(SourceReferenceCache(cache: cache, tree: "/app", mentionWords: ["@Model"]).entries, [:])
        XCTAssertEqual(
            SourceReferenceCache(cache: cache, tree: tree, mentionWords: ["@Model", "MigrationStage"]).entries, [:])
        let file = try entryFile(in: folder)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(
            text.hasPrefix(
                #"{"format":2,"key":"/app\n/other\u001fscan "# + "\(SourceReference.scanRevision)"
                    + #"\u001f@Model","tool":""# + ResultCache.tool + "\"}\n"))
        XCTAssertEqual(text.split(separator: "\n").count, 4)
        try Data(text.replacingOccurrences(of: ResultCache.tool, with: "0.0.0-other").utf8).write(to: file)
        XCTAssertEqual(SourceReferenceCache(cache: cache, tree: tree, mentionWords: ["@Model"]).entries, [:])
        // No cache folder: nothing read, nothing kept.
        SourceReferenceCache(cache: ResultCache(folder: nil), tree: tree, mentionWords: ["@Model"]).store(stored)
        XCTAssertEqual(
            SourceReferenceCache(cache: ResultCache(folder: nil), tree: tree, mentionWords: ["@Model"]).entries, [:])
    }

    /// Every cut of a stored entry, and every byte of it changed, is read without a crash, as nothing or as
    /// records that were stored (a record is whole or refused); a record with a field more or less, or a number
    /// that is not one, is refused alone.
    func testAnAlteredEntryGivesOnlyWhatWasStoredOrNothing() throws {
        let folder = try makeTemporaryDirectory(self)
        let cache = ResultCache(folder: folder.path)
        SourceReferenceCache(cache: cache, tree: "/app", mentionWords: ["@Model"]).store(stored)
        let file = try entryFile(in: folder)
        let bytes = try [UInt8](Data(contentsOf: file))
        let original = stored
        func read(_ altered: [UInt8]) throws -> [String: SourceReferenceCache.Entry] {
            try Data(altered).write(to: file)
            return SourceReferenceCache(cache: cache, tree: "/app", mentionWords: ["@Model"]).entries
        }
        for length in 0..<bytes.count {
            let entries = try read(Array(bytes[..<length]))
            // A cut that is not at a line's end leaves no newline last: the entry is refused whole.
            XCTAssertTrue(entries.isEmpty || bytes[length - 1] == 0x0A, "cut at \(length)")
            XCTAssertTrue(entries.allSatisfy { original[$0.key] == $0.value }, "cut at \(length)")
        }
        for offset in stride(from: 0, to: bytes.count, by: 3) {
            for value: UInt8 in [0x09, 0x0A, 0x30, 0xFF, 0x5B] {
                var altered = bytes
                altered[offset] = value
                _ = try read(altered)
            }
        }
        var text = String(decoding: bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "\t1234\t", with: "\t12x4\t")
        XCTAssertEqual(try read(Array(text.utf8)).keys.sorted(), ["/app/C.swift", "/app/Schemas/B \u{E9}.swift"])
        text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\t0\t[]", with: "\t0\t[]\t")
        XCTAssertEqual(try read(Array(text.utf8)).keys.sorted(), ["/app/C.swift", "/app/Schemas/B \u{E9}.swift"])
        text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\t0\t[]", with: "\t2\t[]")
        XCTAssertEqual(try read(Array(text.utf8)).keys.sorted(), ["/app/C.swift", "/app/Schemas/B \u{E9}.swift"])
        text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
            of: #"["checksum",3,9,"abc"]"#, with: #"["checksum",3,9]"#)
        XCTAssertEqual(try read(Array(text.utf8)).keys.sorted(), ["/app/A.swift", "/app/C.swift"])
        // A line or column no file has (a location keeps 31 bits) is refused, as a number that is not one.
        for number in ["2147483648", "-1"] {
            text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
                of: #"["checksum",3,9,"abc"]"#, with: #"["checksum",\#(number),9,"abc"]"#)
            XCTAssertEqual(try read(Array(text.utf8)).keys.sorted(), ["/app/A.swift", "/app/C.swift"], number)
        }
        XCTAssertEqual(try read(bytes + [0xC3]), [:])
        XCTAssertEqual(try read(bytes), original)
    }

    func testPiecesAreWhatSplitKeepsEmptyPiecesIncluded() {
        let inputs: [[UInt8]] = [
            [], [9], [9, 9], [1], [1, 9], [9, 1], [1, 2, 9, 3, 9, 9, 4], Array(repeating: 9, count: 70),
            Array("a\tbb\t\tccc\t".utf8),
        ]
        for input in inputs {
            for start in 0...input.count {
                let slice = input[start...]
                XCTAssertEqual(
                    ByteSearch.pieces(of: slice, separatedBy: 9).map(Array.init),
                    slice.split(separator: 9, omittingEmptySubsequences: false).map(Array.init),
                    "\(input) from \(start)")
                XCTAssertEqual(ByteSearch.pieces(of: slice, separatedBy: 9).first?.startIndex, start)
            }
        }
    }
}

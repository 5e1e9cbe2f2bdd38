import Foundation
import Testing
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands

/// A bundle's versions repeat most entities byte for byte; a repeat is placed from the cache instead of
/// built again. What it places must be exactly what building the version alone gives.
@Suite struct EntitySourceCacheTests {
    private func parsedAlone(_ version: ModelVersion, in bundle: URL) throws -> Model? {
        let url = bundle.deletingLastPathComponent().appendingPathComponent(version.contentsPath)
        guard case .model(let model) = ContentsParser.parse(data: try Data(contentsOf: url), path: version.contentsPath)
        else { return nil }
        return model
    }

    private func assertSameAsParsedAlone(_ bundle: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws
    {
        let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent)
        for version in loaded.versions {
            guard let model = version.model else { continue }
            let alone = try #require(try parsedAlone(version, in: bundle), sourceLocation: sourceLocation)
            #expect(
                model.entities == alone.entities, "\(bundle.lastPathComponent) \(version.name)",
                sourceLocation: sourceLocation)
            #expect(
                model.unknownXML == alone.unknownXML, "\(bundle.lastPathComponent) \(version.name)",
                sourceLocation: sourceLocation)
            #expect(
                model.contentKeys == alone.contentKeys, "\(bundle.lastPathComponent) \(version.name)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func testARepeatedEntityIsPlacedOnItsOwnLinesAndColumns() throws {
        // The same text on one line, at another line and column in the second file, with an unknown attribute inside.
        let thing =
            "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\" colour=\"red\"/></entity>"
        func contents(_ body: String) -> Data { Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8) }
        let cache = EntitySourceCache()
        guard case .model(let first) = ContentsParser.parse(data: contents(thing), path: "1/contents", cache: cache),
            case .model(let second) = ContentsParser.parse(
                data: contents("<entity name=\"Other\"/>\n\n      " + thing), path: "2/contents", cache: cache),
            case .model(let alone) = ContentsParser.parse(
                data: contents("<entity name=\"Other\"/>\n\n      " + thing), path: "2/contents")
        else {
            Issue.record("not parsed")
            return
        }
        #expect(first.entities[0].properties.map(\.location.column) == [22])
        let placed = try #require(second.entity(named: "Thing"))
        #expect(placed.location == ModelLintModel.SourceLocation(file: "2/contents", line: 5, column: 7))
        #expect(
            placed.properties.map(\.location) == [
                ModelLintModel.SourceLocation(file: "2/contents", line: 5, column: 28)
            ])
        #expect(
            (second.unknownXML.map { "\($0.name)@\($0.location.line ?? 0):\($0.location.column ?? 0)" }) == [
                "colour@5:28"
            ])
        #expect(second.entities == alone.entities)
        #expect(second.unknownXML == alone.unknownXML)
        #expect(second.contentKeys == alone.contentKeys)
    }

    @Test func testTextThatOnlyBeginsLikeACachedEntityIsBuilt() throws {
        // The cached text ends at the first </entity>; here a comment holds one, and the entity goes on after it.
        let cache = EntitySourceCache()
        func contents(_ body: String) -> Data { Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8) }
        let short = "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let long =
            "<entity name=\"Thing\"><attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/><!-- </entity> --><attribute name=\"b\" optional=\"YES\" attributeType=\"String\"/></entity>"
        _ = ContentsParser.parse(data: contents(short), path: "1/contents", cache: cache)
        guard case .model(let model) = ContentsParser.parse(data: contents(long), path: "2/contents", cache: cache)
        else {
            Issue.record("not parsed")
            return
        }
        #expect(model.entities[0].properties.map(\.name) == ["a", "b"])
    }

    /// Parses `second` after `first` has filled a cache, and alone; says what each gave.
    private func parsedAfter(_ first: String, _ second: String, header: String = RuleExample.modelHeader) -> (
        withCache: String, alone: String
    ) {
        func contents(_ body: String, _ header: String) -> Data { Data((header + "\n" + body + "\n</model>\n").utf8) }
        func summary(_ content: VersionContent) -> String {
            switch content {
            case .model(let model):
                return model.entities.map {
                    "\($0.name)@\($0.location.line ?? 0):\($0.location.column ?? 0)[\($0.properties.map(\.name).joined(separator: ","))]"
                }.joined(separator: " ")
                    + " unknown: " + model.unknownXML.map(\.name).joined(separator: ",")
            case .malformed(let reason, let location):
                return "malformed \(location.line ?? 0):\(location.column ?? 0) \(reason)"
            case .missing, .legacy: return "?"
            }
        }
        let cache = EntitySourceCache()
        _ = ContentsParser.parse(data: contents(first, RuleExample.modelHeader), path: "1/contents", cache: cache)
        return (
            summary(ContentsParser.parse(data: contents(second, header), path: "2/contents", cache: cache)),
            summary(ContentsParser.parse(data: contents(second, header), path: "2/contents"))
        )
    }

    private let thing =
        "<entity name=\"Thing\" representedClassName=\"Thing\">\n    <attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>\n</entity>"

    @Test func testARepeatInsideACommentStaysAComment() {
        let result = parsedAfter(thing, "<entity name=\"Other\"/>\n<!-- " + thing + " -->")
        #expect(result.withCache == "Other@3:1[] unknown: ")
        #expect(result.withCache == result.alone)
    }

    @Test func testAnErrorAfterARepeatIsReportedWhereItIs() {
        let result = parsedAfter(thing, thing + " <attribute name=\"b\" optional=\"YES\" attributeType=\"String\">\n")
        #expect(result.withCache.hasPrefix("malformed "), Comment(rawValue: result.withCache))
        #expect(result.withCache == result.alone)
    }

    @Test func testElementsAfterABlankedRepeatKeepTheirLinesAndColumns() {
        // After stands on the repeat's last line; Later two lines below; with LF and with CRLF line breaks.
        for lineBreak in ["\n", "\r\n"] {
            let repeated = thing.replacingOccurrences(of: "\n", with: lineBreak)
            let result = parsedAfter(
                repeated,
                "  " + repeated + "<entity name=\"After\"/>" + lineBreak + lineBreak + "   <entity name=\"Later\"/>")
            #expect(result.withCache == "Thing@3:3[a] After@5:10[] Later@7:4[] unknown: ")
            #expect(result.withCache == result.alone)
        }
    }

    private let small = "<entity name=\"Small\"></entity>"
    private let other =
        "<entity name=\"Other\">\n  <attribute name=\"b\" optional=\"YES\" attributeType=\"Integer 16\" colour=\"red\"/></entity>"

    @Test func testARunOfRepeatsIsOnePlaceholderAndEveryRepeatKeepsItsPlace() throws {
        // Three repeats with only white space between (one on the line another ends on), then an entity built.
        for lineBreak in ["\n", "\r\n"] {
            let first = [thing, small, other].joined(separator: "\n").replacingOccurrences(of: "\n", with: lineBreak)
            let second = ("  " + other + " " + small + "\n\n\t" + thing + "<entity name=\"After\"/>")
                .replacingOccurrences(of: "\n", with: lineBreak)
            let result = parsedAfter(first, second)
            #expect(result.withCache == "Other@3:3[b] Small@4:89[] Thing@6:2[a] After@8:10[] unknown: colour")
            #expect(result.withCache == result.alone)
            // The three repeats are one run: the parser reads one placeholder for them.
            let cache = EntitySourceCache()
            _ = ContentsParser.parse(
                data: Data((RuleExample.modelHeader + "\n" + first + "\n</model>\n").utf8), path: "1/contents",
                cache: cache)
            let blanked = cache.blankingRepeats(in: Array(second.utf8))
            #expect(blanked.repeats.count == 3)
            #expect(blanked.runs.values.map(\.count) == [2])
            #expect(
                (String(decoding: blanked.bytes, as: UTF8.self).components(separatedBy: "<entity/>").count - 1) == 1)
        }
    }

    @Test func testARunEndsAtAnythingButWhiteSpace() {
        let result = parsedAfter(
            [thing, small].joined(separator: "\n"),
            thing + "<!-- between -->" + small + "\n<entity name=\"New\"/>" + small)
        #expect(result.withCache == "Thing@3:1[a] Small@5:26[] New@6:1[] Small@6:21[] unknown: ")
        #expect(result.withCache == result.alone)
    }

    @Test func testARunWhereEntitiesDoNotBelongIsReportedAsItsRepeatsWouldBe() {
        let cache = EntitySourceCache()
        func contents(_ body: String) -> Data { Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8) }
        _ = ContentsParser.parse(data: contents(thing + "\n" + small), path: "1/contents", cache: cache)
        // Inside a configuration: each repeat is an unknown element of its own.
        let misplaced = contents("<configuration name=\"C\">" + thing + "\n" + small + "</configuration>")
        #expect(cache.blankingRepeats(in: [UInt8](misplaced)).runs.count == 1, "the two repeats are a run")
        guard case .model(let withCache) = ContentsParser.parse(data: misplaced, path: "2/contents", cache: cache),
            case .model(let alone) = ContentsParser.parse(data: misplaced, path: "2/contents")
        else {
            Issue.record("not parsed")
            return
        }
        #expect((withCache.unknownXML.map { "\($0.name)@\($0.location.line ?? 0)" }) == ["entity@3", "entity@6"])
        #expect(withCache.unknownXML == alone.unknownXML)
        // Two roots and no model: refused where the second root begins, as without the cache.
        let roots = Data((thing + "\n" + small + "\n").utf8)
        let refused = ContentsParser.parse(data: roots, path: "3/contents", cache: cache)
        guard case .malformed(let reason, let location) = refused,
            case .malformed(let reasonAlone, let locationAlone) = ContentsParser.parse(data: roots, path: "3/contents")
        else {
            Issue.record("\(refused)")
            return
        }
        #expect(reason == reasonAlone)
        #expect(location == locationAlone)
        #expect(location.line == 4)
    }

    @Test func testAFileDeclaringNamespacesIsNeitherBlankedNorCached() {
        // Prefixed text is well-formed only where its prefix is declared: never taken from the cache.
        let prefixed = "<entity name=\"Thing\" x:colour=\"red\">\n</entity>"
        let declaring = RuleExample.modelHeader.replacingOccurrences(of: "<model ", with: "<model xmlns:x=\"urn:x\" ")
        let cache = EntitySourceCache()
        _ = ContentsParser.parse(
            data: Data((declaring + "\n" + prefixed + "\n</model>\n").utf8), path: "1/contents", cache: cache)
        let text = Array(prefixed.utf8)
        #expect(
            cache.entry(forSourceHash: EntitySourceCache.textHash(text, text.indices), text: text, text.indices) == nil)
        // The same text in a file without namespaces is cached.
        let plain = EntitySourceCache()
        let unprefixed = Array(prefixed.replacingOccurrences(of: "x:colour", with: "colour").utf8)
        _ = ContentsParser.parse(
            data: Data(
                (RuleExample.modelHeader + "\n" + String(decoding: unprefixed, as: UTF8.self) + "\n</model>\n").utf8),
            path: "1/contents", cache: plain)
        #expect(
            plain.entry(
                forSourceHash: EntitySourceCache.textHash(unprefixed, unprefixed.indices), text: unprefixed,
                unprefixed.indices) != nil)
        let result = parsedAfter(thing, thing, header: declaring)
        #expect(result.withCache == "Thing@3:1[a] unknown: xmlns:x")
        #expect(result.withCache == result.alone)
    }

    @Test func testTextHashReadsOnlyTheRangeAndAHitNeedsTheSameBytes() {
        let text = Array("<entity name=\"Thing\">\n    <attribute name=\"a\"/>\n</entity>".utf8)
        let padded = Array("  xyz".utf8) + text + Array("tail".utf8)
        let range = 5..<(5 + text.count)
        #expect(EntitySourceCache.textHash(padded, range) == EntitySourceCache.textHash(text, text.indices))
        // Every length up to two 16-byte steps and a tail, and one changed byte anywhere, changes the hash.
        var hashes: Set<Int> = []
        for length in 0...40 { hashes.insert(EntitySourceCache.textHash(text, 0..<length)) }
        #expect(hashes.count == 41)
        for i in text.indices {
            var changed = text
            changed[i] ^= 0x01
            #expect(
                EntitySourceCache.textHash(changed, changed.indices) != EntitySourceCache.textHash(text, text.indices),
                "byte \(i)")
        }

        let cache = EntitySourceCache()
        let hash = EntitySourceCache.textHash(text, text.indices)
        cache.insert(
            EntitySourceCache.Entry(
                text: text, entity: Entity(name: "Thing", location: ModelLintModel.SourceLocation(file: "1")),
                unknownXML: [], line: 1,
                column: 1), forSourceHash: hash)
        #expect(cache.entry(forSourceHash: hash, text: padded, range)?.entity.name == "Thing")
        // Same hash, other bytes (as a collision would be): no hit.
        var other = text
        other[8] = UInt8(ascii: "X")
        #expect(cache.entry(forSourceHash: hash, text: other, other.indices) == nil)
        #expect(cache.entry(forSourceHash: hash, text: text, 0..<(text.count - 1)) == nil)
    }

    /// A candidate is found by its opening tag (`entry(at:in:)`) and compared whole: for every `<entity` of every
    /// version of every bundle, with the cache its bundle's read filled, it finds what hashing the text up to the
    /// first `</entity>` finds (`entry(forSourceHash:)`), the same entry under the same hash, or nothing.
    @Test func testAnEntryFoundByItsOpeningIsTheOneItsWholeTextFinds() throws {
        var candidates = 0
        var hits = 0
        for bundle in fixtureAndCorpusBundles() {
            let cache = EntitySourceCache()
            let loaded = BundleLoader.load(
                bundleURL: bundle, displayPath: bundle.path, versionOrder: nil, cache: cache)
            for version in loaded.versions {
                guard let bytes = try? FileReader.readBytes(version.contentsPath, limit: 64 << 20) else { continue }
                var offset = 0
                while let start = ByteSearch.firstIndex(of: Array("<entity".utf8), in: bytes, from: offset) {
                    offset = start + 7
                    guard offset < bytes.count, XMLVocabulary.isSpace(bytes[offset]) else { continue }
                    candidates += 1
                    let byText = ByteSearch.firstIndex(of: Array("</entity>".utf8), in: bytes, from: offset).flatMap {
                        end -> (hash: Int, entry: EntitySourceCache.Entry)? in
                        let hash = EntitySourceCache.textHash(bytes, start..<(end + 9))
                        return cache.entry(forSourceHash: hash, text: bytes, start..<(end + 9)).map { (hash, $0) }
                    }
                    let byOpening = cache.entry(at: start, in: bytes)
                    #expect(byText?.entry === byOpening?.entry, "\(version.contentsPath) at \(start)")
                    #expect(byText?.hash == byOpening?.hash, "\(version.contentsPath) at \(start)")
                    if byOpening != nil { hits += 1 }
                }
            }
        }
        #expect(candidates > (corpusRoot == nil ? 100 : 8_000))
        #expect(hits > (corpusRoot == nil ? 50 : 8_000))
    }

    @Test func testEveryBundleParsesAsItsVersionsDoAlone() throws {
        let bundles = fixtureAndCorpusBundles()
        #expect(bundles.count == expectedBundleCount())
        for bundle in bundles { try assertSameAsParsedAlone(bundle) }
    }
}

@Suite struct EntityLocationsTests {
    /// `elementLocations` lists what `mapLocations` visits, in the same order: moving findings and pairs relies on it.
    @Test func testElementLocationsFollowMapLocationsOrder() throws {
        let body = """
            <entity name="Thing">
                <attribute name="a" optional="YES" attributeType="String"/>
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing"/>
                <fetchedProperty name="f" optional="YES"><fetchRequest name="fr" entity="Thing"/></fetchedProperty>
                <uniquenessConstraints><uniquenessConstraint><constraint value="a"/></uniquenessConstraint></uniquenessConstraints>
                <compoundIndexes><compoundIndex><index value="a"/></compoundIndex></compoundIndexes>
                <fetchIndex name="byA"><fetchIndexElement property="a" type="Binary" order="ascending"/></fetchIndex>
            </entity>
            """
        guard
            case .model(let model) = ContentsParser.parse(
                data: Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8), path: "c")
        else {
            Issue.record("not parsed")
            return
        }
        let entity = model.entities[0]
        var visited: [ModelLintModel.SourceLocation] = []
        _ = entity.mapLocations {
            visited.append($0)
            return $0
        }
        #expect(entity.elementLocations == visited)
        #expect(visited.compactMap(\.line) == [3, 4, 5, 6, 6, 7, 8, 9, 9])
    }
}

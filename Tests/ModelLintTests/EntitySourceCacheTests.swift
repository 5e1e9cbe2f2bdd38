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
import ModelLintGather

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

    @Test func testWhatIsRefusedAfterBlankedRepeatsIsRefusedWhereItStands() {
        // The checks read the blanked text; a refusal names the reason and the place in the file, as alone.
        let cache = EntitySourceCache()
        func contents(_ body: [UInt8]) -> Data {
            Data(Array((RuleExample.modelHeader + "\n").utf8) + body + Array("\n</model>\n".utf8))
        }
        _ = ContentsParser.parse(data: contents(Array(thing.utf8)), path: "1/contents", cache: cache)
        let repeated = Array((thing + "\n" + thing + "\n").utf8)
        for (refused, reason) in [
            (Array("<entity name=\"B\u{E9}\"/>".utf8).map { $0 == 0xC3 ? 0xC0 : $0 }, "not valid UTF-8 (byte "),
            (Array("<?colour red?>".utf8), "processing instruction"),
            (Array("<!DOCTYPE model>".utf8), "declares a DTD"),
        ] {
            let data = contents(repeated + refused)
            #expect(cache.blankingRepeats(in: [UInt8](data)).repeats.count == 2)
            let withCache = ContentsParser.parse(data: data, path: "2/contents", cache: cache)
            let alone = ContentsParser.parse(data: data, path: "2/contents")
            guard case .malformed(let message, let location) = withCache else {
                Issue.record("not refused: \(withCache)")
                continue
            }
            #expect(message.contains(reason), "\(message)")
            #expect(location.line == 9)
            guard case .malformed(let messageAlone, let locationAlone) = alone else {
                Issue.record("not refused alone: \(alone)")
                continue
            }
            #expect(message == messageAlone)
            #expect(location == locationAlone)
        }
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
            #expect(blanked.repeats.map(\.runLength) == [2, 0, 0])
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
        #expect(
            cache.blankingRepeats(in: [UInt8](misplaced)).repeats.map(\.runLength) == [1, 0],
            "the two repeats are a run")
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

    /// Each entity with its properties' names and places, and the unknown XML with its entity and property.
    private func placesSummary(_ content: VersionContent) -> String {
        guard case .model(let model) = content else { return "not a model: \(content)" }
        func place(_ location: ModelLintModel.SourceLocation) -> String {
            "\(location.line ?? 0):\(location.column ?? 0)"
        }
        return model.entities.map { entity in
            "\(entity.name)@\(place(entity.location))["
                + entity.properties.map { "\($0.kindName) \($0.name)@\(place($0.location))" }.joined(separator: ", ")
                + "]"
        }.joined(separator: " ")
            + " unknown: "
            + model.unknownXML.map { "\($0.name)@\(place($0.location)) in \($0.entity ?? "-").\($0.property ?? "-")" }
            .joined(separator: ", ")
    }

    private func contents(_ body: String) -> Data {
        Data((RuleExample.modelHeader + "\n" + body + "\n</model>\n").utf8)
    }

    private let before = """
        <entity name="Order" representedClassName="Order">
            <attribute name="number" optional="YES" attributeType="String"/>
            <attribute name="total" optional="YES" attributeType="Double" defaultValueString="0"/>
            <relationship name="items" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="order" inverseEntity="Item"/>
            <attribute name="notes" optional="YES" attributeType="String">
                <userInfo>
                    <entry key="k" value="v"/>
                </userInfo>
            </attribute>
        </entity>
        """

    @Test func testTheRepeatedPropertiesOfAChangedEntityArePlacedOnTheirOwnLinesAndColumns() throws {
        // The entity changed (an attribute added between two, indented otherwise): its other properties repeat.
        let after =
            before
            .replacingOccurrences(of: "    <attribute name=\"number\"", with: "      <attribute name=\"number\"")
            .replacingOccurrences(
                of: "\n    <attribute name=\"total\"",
                with:
                    "\n  <attribute name=\"added\" optional=\"YES\" attributeType=\"Date\"/>\n<attribute name=\"total\""
            )
            .replacingOccurrences(of: "/>\n    <relationship name=\"items\"", with: "/> <relationship name=\"items\"")
        let cache = EntitySourceCache()
        _ = ContentsParser.parse(data: contents(before), path: "1/contents", cache: cache)
        // Four repeats, read as two placeholders: `number` alone, and `total`, `items`, `notes` as one run.
        let blanked = cache.blankingRepeats(in: [UInt8](contents(after)))
        #expect(blanked.propertyRepeats.map(\.runLength) == [0, 2, 0, 0])
        let text = String(decoding: blanked.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "<attribute/>").count - 1 == 2)
        #expect(!text.contains("<relationship/>"))
        // Every line break is kept, and the length of each blanked element's last line.
        let lines = { (text: String) in text.split(separator: "\n", omittingEmptySubsequences: false).map(\.count) }
        #expect(lines(text) == [55, 220, 50, 70, 63, 217, 4, 0, 0, 0, 16, 9, 8, 0])
        #expect(
            lines(String(decoding: contents(after), as: UTF8.self)) == [
                55, 220, 50, 70, 63, 217, 66, 18, 38, 19, 16, 9, 8, 0,
            ])
        #expect(cache.blankingRepeats(in: [UInt8](contents(after)), blankingProperties: false).propertyRepeats.isEmpty)
        let withCache = ContentsParser.parse(data: contents(after), path: "2/contents", cache: cache)
        let alone = ContentsParser.parse(data: contents(after), path: "2/contents")
        #expect(
            placesSummary(withCache)
                == "Order@3:1[attribute number@4:7, attribute added@5:3, attribute total@6:1, relationship items@6:88, "
                + "attribute notes@7:5] unknown: ")
        #expect(placesSummary(withCache) == placesSummary(alone))
        guard case .model(let cached) = withCache, case .model(let built) = alone else {
            Issue.record("not parsed")
            return
        }
        #expect(cached.entities == built.entities)
        #expect(cached.contentKeys == built.contentKeys)
    }

    @Test func testRepeatedPropertiesKeepTheirPlacesWithCarriageReturns() throws {
        // CRLF and lone CR line breaks: each is kept, so every element after a blanked property keeps its place.
        for lineBreak in ["\r\n", "\r"] {
            let first = before.replacingOccurrences(of: "\n", with: lineBreak)
            let second =
                before.replacingOccurrences(
                    of: "<attribute name=\"total\"",
                    with: "<attribute name=\"added\" attributeType=\"Date\"/>\n  <attribute name=\"total\""
                )
                .replacingOccurrences(of: "\n", with: lineBreak)
            let cache = EntitySourceCache()
            _ = ContentsParser.parse(data: contents(first), path: "1/contents", cache: cache)
            #expect(cache.blankingRepeats(in: [UInt8](contents(second))).propertyRepeats.count == 4)
            let withCache = ContentsParser.parse(data: contents(second), path: "2/contents", cache: cache)
            #expect(
                placesSummary(withCache)
                    == placesSummary(ContentsParser.parse(data: contents(second), path: "2/contents")))
            // Lines are counted at line feeds: with lone carriage returns every element is on the model's line.
            let places =
                lineBreak == "\r\n"
                ? "attribute added@5:5, attribute total@6:3, relationship items@7:5, attribute notes@8:5"
                : "attribute added@3:125, attribute total@3:174, relationship items@3:265, attribute notes@3:400"
            #expect(placesSummary(withCache).contains(places), "\(placesSummary(withCache))")
        }
    }

    @Test func testAnEntityWithBlankedPropertiesIsCachedAsItsFileWroteIt() throws {
        // Version 2 changes the entity (its properties repeat); version 3 repeats version 2's entity whole, elsewhere.
        let changed = before.replacingOccurrences(
            of: "representedClassName=\"Order\"", with: "representedClassName=\"Order2\"")
        let cache = EntitySourceCache()
        _ = ContentsParser.parse(data: contents(before), path: "1/contents", cache: cache)
        #expect(cache.blankingRepeats(in: [UInt8](contents(changed))).propertyRepeats.count == 4)
        _ = ContentsParser.parse(data: contents(changed), path: "2/contents", cache: cache)
        let third = contents("<entity name=\"Other\"/>\n  " + changed)
        let blanked = cache.blankingRepeats(in: [UInt8](third))
        #expect(blanked.repeats.count == 1, "version 2's entity is cached under its own text")
        #expect(blanked.propertyRepeats.isEmpty)
        let withCache = ContentsParser.parse(data: third, path: "3/contents", cache: cache)
        #expect(placesSummary(withCache) == placesSummary(ContentsParser.parse(data: third, path: "3/contents")))
        #expect(placesSummary(withCache).hasPrefix("Other@3:1[] Order@4:3[attribute number@5:5, "))
    }

    @Test func testAPropertyHoldingUnknownXMLIsReadWhereItStands() {
        // What is unknown in a property is reported with the name of the entity it stands in: never taken from the cache.
        let colourful = "<attribute name=\"a\" optional=\"YES\" attributeType=\"String\" colour=\"red\"/>"
        let plain = "<attribute name=\"b\" optional=\"YES\" attributeType=\"String\"/>"
        let cache = EntitySourceCache()
        _ = ContentsParser.parse(
            data: contents("<entity name=\"First\">\n" + colourful + "\n" + plain + "\n</entity>"), path: "1/contents",
            cache: cache)
        let second = contents("<entity name=\"Second\">\n" + plain + "\n" + colourful + "\n</entity>")
        #expect(cache.blankingRepeats(in: [UInt8](second)).propertyRepeats.count == 1, "only the plain one")
        let withCache = ContentsParser.parse(data: second, path: "2/contents", cache: cache)
        #expect(
            placesSummary(withCache)
                == "Second@3:1[attribute b@4:1, attribute a@5:1] unknown: colour@5:1 in Second.a")
        #expect(placesSummary(withCache) == placesSummary(ContentsParser.parse(data: second, path: "2/contents")))
    }

    @Test func testRepeatedPropertiesWherePropertiesDoNotBelongAreReadAsWritten() {
        // Inside a fetched property (where an attribute is unknown), and in a comment: as without the cache.
        let a = "<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>"
        let b = "<attribute name=\"b\" optional=\"YES\" attributeType=\"String\"/>"
        let cache = EntitySourceCache()
        _ = ContentsParser.parse(
            data: contents("<entity name=\"E\">\n" + a + "\n" + b + "\n</entity>"), path: "1/contents", cache: cache)
        let misplaced = contents(
            "<entity name=\"E\">\n<fetchedProperty name=\"f\" optional=\"YES\">" + a + "\n" + b
                + "</fetchedProperty>\n" + a + "\n</entity>")
        #expect(
            cache.blankingRepeats(in: [UInt8](misplaced)).propertyRepeats.map(\.runLength) == [1, 0, 0],
            "the misplaced two are a run")
        let withCache = ContentsParser.parse(data: misplaced, path: "2/contents", cache: cache)
        #expect(
            placesSummary(withCache)
                == "E@3:1[attribute a@6:1] unknown: attribute@4:42 in E.f, attribute@5:1 in E.f")
        #expect(placesSummary(withCache) == placesSummary(ContentsParser.parse(data: misplaced, path: "2/contents")))
        let commented = contents("<entity name=\"E\">\n<!-- " + a + " -->\n" + b + "\n</entity>")
        #expect(cache.blankingRepeats(in: [UInt8](commented)).propertyRepeats.isEmpty, "a comment: none blanked")
        #expect(
            placesSummary(ContentsParser.parse(data: commented, path: "3/contents", cache: cache))
                == "E@3:1[attribute b@5:1] unknown: ")
    }

    /// A candidate is found by its opening tag (`entry(at:in:)`) and compared whole: for every `<entity` of every
    /// version of every bundle, with the cache its bundle's read filled, it finds what hashing the text up to the
    /// first `</entity>` finds (`entry(forSourceHash:)`), the same entry under the same hash, or nothing.
    /// Each version of every fixture and corpus bundle, as its file holds it, with the cache its bundle's read filled.
    private func eachVersion(_ body: (_ cache: EntitySourceCache, _ version: ModelVersion, _ bytes: [UInt8]) -> Void) {
        for bundle in fixtureAndCorpusBundles() {
            let cache = EntitySourceCache()
            let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.path, versionOrder: nil, cache: cache)
            for version in loaded.versions {
                guard let bytes = try? FileReader.readBytes(version.contentsPath, limit: 64 << 20) else { continue }
                body(cache, version, bytes)
            }
        }
    }

    @Test func testAnEntryFoundByItsOpeningIsTheOneItsWholeTextFinds() throws {
        var candidates = 0
        var hits = 0
        eachVersion { cache, version, bytes in
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
        #expect(candidates > (corpusRoot == nil ? 100 : 8_000))
        #expect(hits > (corpusRoot == nil ? 50 : 8_000))
    }

    /// Every version read with the properties of its whole bundle cached and no entity, so that every property
    /// whose text another version (or this one) holds is blanked and placed: what it gives alone.
    @Test func testEveryVersionParsesWithItsBundlesPropertiesCachedAsItDoesAlone() throws {
        var blankedProperties = 0
        eachVersion { cache, version, bytes in
            // A copy per version: reading one caches its entities.
            let properties = cache.propertiesOnly()
            guard case .model(let alone) = ContentsParser.parse(bytes: bytes, path: version.contentsPath, cache: nil)
            else { return }
            if !EntitySourceCache.declaresNamespaces(bytes) {
                blankedProperties += properties.blankingRepeats(in: bytes).propertyRepeats.count
            }
            let read = ContentsParser.parse(bytes: bytes, path: version.contentsPath, cache: properties)
            guard case .model(let model) = read else {
                Issue.record("\(version.contentsPath): \(read)")
                return
            }
            #expect(model.entities == alone.entities, "\(version.contentsPath)")
            #expect(model.unknownXML == alone.unknownXML, "\(version.contentsPath)")
            #expect(model.contentKeys == alone.contentKeys, "\(version.contentsPath)")
        }
        #expect(blankedProperties > (corpusRoot == nil ? 300 : 70_000))
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

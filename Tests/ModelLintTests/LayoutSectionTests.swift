import Foundation
import Testing
import ModelLintModel
import ModelLintRules

/// The diagram layout is blanked before parsing only where that cannot change what parsing gives: every version of
/// every fixture and corpus bundle, and every near miss written here, reads the same either way.
@Suite struct LayoutSectionTests {
    private let layout = """
        <elements>
            <element name="Thing" positionX="-63" positionY="-18" width="128" height="44"/>
            <element name='Other' positionX="160" positionY="0" width="128" height="58" />
        </elements>
        """

    private func file(_ body: String, after: String = "\n</model>\n") -> [UInt8] {
        Array((RuleExample.modelHeader + "\n<entity name=\"Thing\"/>\n<entity name=\"Other\"/>\n" + body + after).utf8)
    }

    private func assertSameEitherWay(
        _ bytes: [UInt8], _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let path = "Model.xcdatamodel/contents"
        let blanked = ContentsParser.parse(data: Data(bytes), path: path, cache: nil, blankingLayout: true)
        let asWritten = ContentsParser.parse(data: Data(bytes), path: path, cache: nil, blankingLayout: false)
        switch (blanked, asWritten) {
        case (.model(let a), .model(let b)):
            expectSameModel(a, b, label, sourceLocation: sourceLocation)
        case (.malformed(let reasonA, let locationA), .malformed(let reasonB, let locationB)):
            #expect(reasonA == reasonB, Comment(rawValue: label), sourceLocation: sourceLocation)
            #expect(locationA == locationB, Comment(rawValue: label), sourceLocation: sourceLocation)
        default:
            Issue.record("\(label): \(blanked) blanked, \(asWritten) as written", sourceLocation: sourceLocation)
        }
    }

    @Test func testEveryVersionOfEveryBundleReadsTheSameWithTheLayoutBlanked() throws {
        var files = 0
        var blanked = 0
        for bundle in fixtureAndCorpusBundles() {
            let versions = try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter {
                $0.hasSuffix(".xcdatamodel")
            }
            for version in versions {
                let url = bundle.appendingPathComponent(version).appendingPathComponent("contents")
                guard let data = try? Data(contentsOf: url) else { continue }
                files += 1
                if LayoutSection.range(in: [UInt8](data)) != nil { blanked += 1 }
                assertSameEitherWay([UInt8](data), url.path)
            }
        }
        // Counted independently: files that end with a section of Xcode's form (by a regular expression).
        let xcodesLayout = try NSRegularExpression(
            pattern:
                #"<elements>(\s*<element(\s+(name|positionX|positionY|width|height)="[ !#-%'-;=-~]*")+\s*/>)*\s*</elements>\s*</model>\s*$"#
        )
        let expected = try fixtureAndCorpusBundles().flatMap { bundle in
            try FileManager.default.contentsOfDirectory(atPath: bundle.path).filter { $0.hasSuffix(".xcdatamodel") }
                .compactMap {
                    try? String(contentsOf: bundle.appendingPathComponent($0 + "/contents"), encoding: .utf8)
                }
        }.filter { text in
            xcodesLayout.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }.count
        #expect(files > 0)
        #expect(blanked > 0)
        #expect(blanked == expected)
    }

    @Test func testXcodesLayoutIsBlankedWithEveryLineKept() throws {
        let bytes = file(layout)
        let range = try #require(LayoutSection.range(in: bytes))
        #expect(String(decoding: bytes[range], as: UTF8.self) == layout)
        let blanked = try #require(LayoutSection.blanked(bytes))
        #expect(blanked.count == bytes.count)
        #expect((blanked.filter { $0 == 0x0A }.count) == (bytes.filter { $0 == 0x0A }.count))
        #expect(blanked[range].allSatisfy { $0 == 0x20 || $0 == 0x0A })
        #expect(Array(blanked[..<range.lowerBound]) == Array(bytes[..<range.lowerBound]))
        #expect(Array(blanked[range.upperBound...]) == Array(bytes[range.upperBound...]))
        assertSameEitherWay(bytes, "Xcode's layout")
        assertSameEitherWay(file("<elements></elements>"), "an empty layout")
        #expect(LayoutSection.range(in: file("<elements></elements>")) != nil)
        assertSameEitherWay(file(layout.replacingOccurrences(of: "\n", with: "\r\n")), "CRLF line ends")
    }

    @Test func testAnythingButXcodesLayoutAtTheEndIsParsedAsWritten() {
        let element = #"<element name="Thing" positionX="1" positionY="2" width="3" height="4"/>"#
        let refused: [(String, [UInt8])] = [
            (
                "an unknown attribute",
                file("<elements>\(element.replacingOccurrences(of: "/>", with: " colour=\"red\"/>"))</elements>")
            ),
            ("an attribute twice", file(#"<elements><element name="A" name="B"/></elements>"#)),
            ("no space between attributes", file(#"<elements><element name="A"width="3"/></elements>"#)),
            ("no space after the tag name", file(#"<elements><elementname="A"/></elements>"#)),
            ("a reference in a value", file(#"<elements><element name="A&amp;B"/></elements>"#)),
            ("a name that is not ASCII", file(#"<elements><element name="Café"/></elements>"#)),
            ("a control character in a value", file("<elements><element name=\"A\u{7}\"/></elements>")),
            ("a comment inside", file("<elements><!-- x -->\(element)</elements>")),
            ("an element with content", file(#"<elements><element name="A"></element></elements>"#)),
            ("spaces around =", file(#"<elements><element name = "A"/></elements>"#)),
            ("an unterminated value", file(#"<elements><element name="A/></elements>"#)),
            ("a self-closed section", file("<elements/>")),
            ("an attribute on the section", file("<elements x=\"1\">\(element)</elements>")),
            ("a comment after the root", file(layout, after: "\n</model>\n<!-- x -->\n")),
            ("an entity after the section", file(layout + "\n<entity name=\"Late\"/>")),
            (
                "a section inside an entity",
                Array((RuleExample.modelHeader + "<entity name=\"A\">\(layout)</entity>\n</model>").utf8)
            ),
        ]
        for (label, bytes) in refused {
            #expect(LayoutSection.range(in: bytes) == nil, Comment(rawValue: label))
            assertSameEitherWay(bytes, label)
        }
    }

    @Test func testAMalformedFileIsReportedWhereTheParserFindsItInTheFileAsWritten() throws {
        let cases: [(String, [UInt8])] = [
            // The section is blankable, but the file is not well-formed around it.
            ("an entity never closed", file("<entity name=\"Open\">\n" + layout)),
            (
                "a section in an attribute value",
                Array(("<?xml version=\"1.0\"?>\n<model type=\"x\" note=\"" + layout + "\n</model>\n").utf8)
            ),
            ("a section in an unterminated comment", file("<!-- " + layout)),
            (
                "a section after the root",
                Array((RuleExample.modelHeader + "\n</model>\n" + layout + "\n</model>\n").utf8)
            ),
            (
                "a section as the root",
                Array(
                    ("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n" + layout + "\n</model>\n").utf8)
            ),
        ]
        for (label, bytes) in cases {
            #expect(LayoutSection.range(in: bytes) != nil, Comment(rawValue: label))
            guard case .malformed = ContentsParser.parse(data: Data(bytes), path: "m/contents", cache: nil) else {
                Issue.record("\(label): read as a model")
                continue
            }
            assertSameEitherWay(bytes, label)
        }
    }
}

/// The markup refused before parsing (`<!DOCTYPE`, `<!ENTITY`, a `<?` other than the declaration) is found from the
/// `!` and `?` bytes: the same first places as reading every `<` and the byte after it.
@Suite struct RefusedMarkupTests {
    private func readingEveryOpening(_ bytes: [UInt8]) -> (doctype: Int?, entity: Int?, instruction: Int?) {
        let declaration =
            bytes.starts(with: Array("<?xml".utf8)) && bytes.count > 5 && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[5])
        func follows(_ word: String, at offset: Int) -> Bool {
            let word = Array(word.utf8)
            return offset + word.count <= bytes.count && Array(bytes[offset..<(offset + word.count)]) == word
        }
        var found: (doctype: Int?, entity: Int?, instruction: Int?) = (nil, nil, nil)
        for i in bytes.indices where bytes[i] == UInt8(ascii: "<") && i + 1 < bytes.count {
            if bytes[i + 1] == UInt8(ascii: "?"), found.instruction == nil, !(i == 0 && declaration) {
                found.instruction = i
            }
            if bytes[i + 1] == UInt8(ascii: "!") {
                if found.doctype == nil && follows("DOCTYPE", at: i + 2) { found.doctype = i }
                if found.entity == nil && follows("ENTITY", at: i + 2) { found.entity = i }
            }
        }
        return found
    }

    private func assertSame(
        _ bytes: [UInt8], _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let markup = RefusedMarkup(bytes)
        let expected = readingEveryOpening(bytes)
        #expect(markup.doctype == expected.doctype, Comment(rawValue: label), sourceLocation: sourceLocation)
        #expect(markup.entity == expected.entity, Comment(rawValue: label), sourceLocation: sourceLocation)
        #expect(
            markup.processingInstruction == expected.instruction, Comment(rawValue: label),
            sourceLocation: sourceLocation)
    }

    @Test func testTheFirstPlacesAreThoseOfReadingEveryOpening() throws {
        var random = SeededGenerator(seed: 25)
        let pieces = ["<", "?", "!", "<?", "<!", "xml", " ", "DOCTYPE", "ENTITY", "<?xml ", "<!--", "a", "\n"]
        var any = (doctype: 0, entity: 0, instruction: 0)
        for round in 0..<3_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
            let bytes = Array(text.joined().utf8)
            assertSame(bytes, "round \(round): \(text.joined())")
            let markup = RefusedMarkup(bytes)
            if markup.doctype != nil { any.doctype += 1 }
            if markup.entity != nil { any.entity += 1 }
            if markup.processingInstruction != nil { any.instruction += 1 }
        }
        #expect(any.doctype > 50)
        #expect(any.entity > 50)
        #expect(any.instruction > 50)
        for bytes in [[], [UInt8(ascii: "<")], [UInt8(ascii: "?")], Array("<?".utf8), Array("<?xml?>".utf8)] {
            assertSame(bytes, String(decoding: bytes, as: UTF8.self))
        }
        for bundle in fixtureAndCorpusBundles() {
            for version in try FileManager.default.contentsOfDirectory(atPath: bundle.path)
            where version.hasSuffix(".xcdatamodel") {
                guard let data = try? Data(contentsOf: bundle.appendingPathComponent(version + "/contents")) else {
                    continue
                }
                assertSame([UInt8](data), version)
            }
        }
    }
}

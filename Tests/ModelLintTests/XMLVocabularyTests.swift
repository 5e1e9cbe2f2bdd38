import XCTest
import ModelLintModel

/// The parser's vocabulary lookups (`XMLVocabulary.Words`, `XMLVocabulary.element`) answer as the `Set`s and
/// dictionaries they are built from do, for every word and for near misses.
final class XMLVocabularyTests: XCTestCase {
    private var allWords: [String] {
        let attributes: [String] = Array(XMLVocabulary.attributes.values.joined())
        let children: [String] = Array(XMLVocabulary.children.values.joined())
        let elements: [String] = Array(XMLVocabulary.attributes.keys)
        return attributes + children + elements
    }

    func testWordsAnswerAsTheSetsTheyAreBuiltFrom() {
        var candidates: [String] = ["", "renamingIdentifier", "name ", " name", "nam\u{E9}", "syncable"]
        for word in Set(allWords) {
            let variants: [String] = [
                word, word.uppercased(), word + "s", String(word.dropLast()), word + "\u{301}", "\u{212A}" + word,
                word.replacingOccurrences(of: "K", with: "\u{212A}"),
            ]
            candidates += variants
        }
        var checked = 0
        for (element, attributes) in XMLVocabulary.attributes {
            let vocabulary = XMLVocabulary.element(element)
            XCTAssertEqual(vocabulary?.name, element)
            let children = XMLVocabulary.children[element] ?? []
            for word in candidates {
                XCTAssertEqual(vocabulary?.attributes.contains(word), attributes.contains(word), "\(element) \(word)")
                XCTAssertEqual(vocabulary?.children.contains(word), children.contains(word), "\(element) \(word)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertNil(XMLVocabulary.element("entities"))
        XCTAssertNil(XMLVocabulary.element(""))
        XCTAssertEqual(XMLVocabulary.element("entity")?.children.contains("attribute"), true)
        XCTAssertEqual(XMLVocabulary.element("attribute")?.attributes.contains("renamingIdentifier"), true)
        XCTAssertEqual(XMLVocabulary.element("attribute")?.attributes.contains("renamingIdentifiers"), false)
    }

    /// A name with a character other than ASCII is compared as `String` compares: a Kelvin sign is a K.
    func testCanonicallyEquivalentNamesAreFoundAsBefore() {
        let kelvin = "usedWithCloud\u{212A}it"
        XCTAssertEqual(XMLVocabulary.element("model")?.attributes.contains(kelvin), true)
        XCTAssertEqual(XMLVocabulary.attributes["model"]?.contains(kelvin), true)
        XCTAssertEqual(XMLVocabulary.element("configuration")?.attributes.contains(kelvin), true)
        XCTAssertEqual(XMLVocabulary.element("entity")?.attributes.contains(kelvin), false)
    }

    func testATableAnswersAsADictionaryOfItsNames() {
        let names = Set(allWords).sorted()
        let table = XMLVocabulary.Table(names.enumerated().map { ($1, $0) })
        let dictionary = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var checked = 0
        for word in names {
            for candidate in [
                word, word.uppercased(), word + "s", String(word.dropLast()), word + "\u{301}", "\u{212A}" + word,
                word.replacingOccurrences(of: "K", with: "\u{212A}"), "",
            ] {
                XCTAssertEqual(table[candidate], dictionary[candidate], candidate)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 400)
        // A Kelvin sign for the K of a name finds the name, as a dictionary would.
        XCTAssertEqual(table["usedWithCloud\u{212A}it"], dictionary["usedWithCloudKit"])
        XCTAssertNotNil(table["usedWithCloud\u{212A}it"])
    }
}

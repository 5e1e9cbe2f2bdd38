import XCTest
import ModelLintSupport

/// `NameIndex` answers as a `[String: Int]` filled with "first value wins" answers: the same value for every key,
/// nil for the same absent ones, String equality (canonical equivalence) included, however the keys are spelled.
final class NameIndexTests: XCTestCase {
    /// Records every key in turn with its position; checks each probe against a dictionary filled the same way.
    private func assertAnswersAsADictionary(
        _ keys: [String], probes: [String], file: StaticString = #filePath, line: UInt = #line
    ) {
        var index = NameIndex(capacity: keys.count / 2)
        var dictionary: [String: Int] = [:]
        for (i, key) in keys.enumerated() {
            let expected = dictionary[key] ?? i
            if dictionary[key] == nil { dictionary[key] = i }
            XCTAssertEqual(
                index.first(key, else: i), expected, "recording \(key.debugDescription)", file: file, line: line)
        }
        XCTAssertEqual(index.count, dictionary.count, file: file, line: line)
        XCTAssertEqual(Set(index.keys), Set(dictionary.keys), file: file, line: line)
        for probe in keys + probes {
            XCTAssertEqual(
                index[probe], dictionary[probe], "looking up \(probe.debugDescription)", file: file, line: line)
        }
    }

    func testASCIINamesOfEveryLengthAcrossGrowth() {
        // Lengths 0 to 40 cross the eight-byte steps; 600 keys grow the table from 16 slots several times.
        let keys = (0..<600).map { i in String(repeating: "a", count: i % 41) + "\(i % 450)" } + [""]
        let probes = ["absent", "a", String(repeating: "a", count: 41), "0 ", " 0", "Aa"]
        assertAnswersAsADictionary(keys, probes: probes)
        var index = NameIndex()
        XCTAssertNil(index["x"], "an empty index finds nothing")
        XCTAssertEqual(index.first("x", else: 3), 3)
        XCTAssertEqual(index.first("x", else: 4), 3, "the first value stays")
        XCTAssertEqual(index["x"], 3)
        XCTAssertNil(index["X"])
    }

    func testCanonicallyEquivalentSpellingsAreOneKey() {
        // Precomposed and decomposed é; the Kelvin sign, canonically equivalent to the ASCII letter K; ASCII keys
        // recorded before and after a key that is not ASCII.
        assertAnswersAsADictionary(
            ["Order", "Caf\u{E9}", "Cafe\u{301}", "Item", "K", "\u{212A}"], probes: ["Caf", "k", "\u{212B}", "\u{C5}"])
        assertAnswersAsADictionary(["\u{212A}", "K", "Order"], probes: ["K", "\u{212A}"])
        assertAnswersAsADictionary(["Order", "K"], probes: ["\u{212A}", "Caf\u{E9}"])
        // The Greek question mark is `;` and the Greek varia a backquote; an accented letter is no ASCII name.
        assertAnswersAsADictionary(["a;b", "`x", "e"], probes: ["a\u{37E}b", "\u{1FEF}x", "e\u{301}", "\u{37E}"])
        var index = NameIndex()
        index.first("Kelvin", else: 0)
        XCTAssertEqual(index["\u{212A}elvin"], 0, "an ASCII index asked for an equivalent name that is not ASCII")
    }

    func testRandomNamesAnswerAsADictionary() {
        var generator = SystemRandomNumberGenerator()
        let ascii: [Character] = ["a", "b", "Z", "_", "0", "e", "K"]
        let any = ascii + ["\u{E9}", "\u{301}", "\u{212A}", "\u{1F600}"]
        func name(_ letters: [Character]) -> String {
            String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
        }
        // Even rounds record ASCII names only and are asked for any: the index stays in its ASCII form.
        for round in 0..<20 {
            let keys = (0..<(50 + round * 10)).map { _ in name(round.isMultiple(of: 2) ? ascii : any) }
            let probes = (0..<50).map { _ in name(any) }
            assertAnswersAsADictionary(keys, probes: probes)
        }
    }
}

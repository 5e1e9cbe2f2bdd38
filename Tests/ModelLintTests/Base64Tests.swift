import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel

/// `Base64.decode` answers as Foundation's `Data(base64Encoded:options: .ignoreUnknownCharacters)`, the decoder it
/// replaces for the archives a mapping model embeds, on every text an encoder writes: Foundation is the independent
/// source of those answers.
final class Base64Tests: XCTestCase {
    private func foundation(_ text: [UInt8]) -> [UInt8]? {
        Data(base64Encoded: Data(text), options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }

    private func decoded(_ text: [UInt8]) -> [UInt8]? { text.withUnsafeBufferPointer { Base64.decode($0) } }

    /// Texts Foundation's decoder does not read alike on every platform are answered by the rule above: a letter
    /// after padding, a tail of one letter, letters and padding not a multiple of four, no letter at all.
    func testByHand() {
        XCTAssertEqual(decoded(Array("TWFu".utf8)), Array("Man".utf8))
        XCTAssertEqual(decoded(Array("TWE=".utf8)), Array("Ma".utf8))
        XCTAssertEqual(decoded(Array("TQ==".utf8)), Array("M".utf8))
        XCTAssertEqual(decoded(Array(" T\nW\tF u ".utf8)), Array("Man".utf8))
        XCTAssertEqual(decoded(Array("TQ=\n=\n".utf8)), Array("M".utf8))
        XCTAssertEqual(decoded([]), [])
        XCTAssertNil(decoded([0x0A, 0x00, 0xFF]))
        XCTAssertNil(decoded(Array("====".utf8)))
        XCTAssertNil(decoded(Array("TWF".utf8)))
        XCTAssertNil(decoded(Array("TWFuT".utf8)))
        XCTAssertNil(decoded(Array("TWFuT===".utf8)))
        XCTAssertNil(decoded(Array("TQ==TWFu".utf8)))
        XCTAssertNil(decoded(Array("TQ=".utf8)))
        XCTAssertNil(decoded(Array("TWFu=".utf8)))
    }

    /// Random bytes of every length from 1 to 300 (every tail: none, one and two bytes), encoded as Foundation
    /// encodes them, with padding and without, and with bytes outside the alphabet strewn anywhere in them (line
    /// breaks as Xcode writes them, white space, NUL, bytes above 127).
    func testEncodedTextsDecodeAsFoundationDecodesThem() {
        var generator = SystemRandomNumberGenerator()
        let others: [UInt8] = [0x20, 0x0A, 0x0D, 0x09, 0x00, 0x2D, 0x5F, 0x80, 0xFF, 0x3C, 0x2E]
        var decodable = 0
        var undecodable = 0
        // (Zero bytes are left to `testByHand`: Foundation answers a text of no letter with nil or no bytes by how
        // many other bytes it holds.)
        for round in 0..<4_000 {
            let data = (0..<(1 + round % 300)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var text = [UInt8](Data(data).base64EncodedData())
            if round % 7 == 1 { text.removeAll { $0 == UInt8(ascii: "=") } }
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let at = Int.random(in: 0...text.count, using: &generator)
                text.insert(others.randomElement(using: &generator)!, at: at)
            }
            let expected = foundation(text)
            XCTAssertEqual(decoded(text), expected, "\(text)")
            if expected == data { decodable += 1 } else { undecodable += 1 }
        }
        // Without padding, only the texts whose bytes fill whole groups decode.
        XCTAssertGreaterThan(decodable, 3_000)
        XCTAssertGreaterThan(undecodable, 250)
    }

    /// Every archive embedded in the fixtures' mapping models (and the corpus's, when present) decodes to Foundation's
    /// bytes.
    func testEveryEmbeddedArchiveDecodesAsFoundationDecodesIt() throws {
        var archives = 0
        for (relative, xml) in try mappingModelFiles(in: repositoryRoot.appendingPathComponent("Fixtures")) {
            for name in ["sourcemodeldata", "destinationmodeldata"] {
                guard let range = MappingModelSnapshot.embeddedText(name, in: xml) else { continue }
                let text = Array(xml[range])
                let expected = try XCTUnwrap(foundation(text), relative)
                XCTAssertEqual(decoded(text), expected, relative)
                XCTAssertEqual(MappingModelSnapshot.embeddedArchive(name, in: xml), expected, relative)
                archives += 1
            }
        }
        XCTAssertGreaterThanOrEqual(archives, corpusRoot == nil ? 2 : 10)
    }
}

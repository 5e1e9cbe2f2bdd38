import XCTest
import ModelLintSupport

/// The word-at-a-time byte tests answer what looking at each byte answers.
final class ByteSearchTests: XCTestCase {
    func testLineStartsAreZeroAndOnePastEachLineFeed() {
        XCTAssertEqual(ByteSearch.lineStarts(in: Array("a\nb\n\ncd".utf8)), [0, 2, 4, 5])
        XCTAssertEqual(ByteSearch.lineStarts(in: []), [0])
        XCTAssertEqual(ByteSearch.lineStarts(in: Array("\n".utf8)), [0, 1])
        XCTAssertEqual(ByteSearch.lineStarts(in: Array("a\r\nb".utf8)), [0, 3])
        XCTAssertEqual(ByteSearch.offsets(of: UInt8(ascii: "<"), in: Array("<a><b/></a>".utf8)), [0, 3, 7])
    }

    func testZeroBytesMarksTheFirstZeroByteOfEveryWord() {
        var random = SeededGenerator(seed: 25)
        for _ in 0..<20_000 {
            // Few distinct values, so zero bytes are common and come in runs.
            let bytes = (0..<8).map { _ in [0x00, 0x01, 0x3C, 0x80, 0xFF][Int.random(in: 0..<5, using: &random)] }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64($1.offset * 8) }
            let mask = ByteSearch.zeroBytes(word)
            let first = bytes.firstIndex(of: 0)
            XCTAssertEqual(mask == 0, first == nil, "\(bytes)")
            if let first { XCTAssertEqual(mask.trailingZeroBitCount / 8, first, "\(bytes)") }
        }
    }

    func testLastIndexIsTheLastMatchAtOrBeforeTheEnd() {
        var random = SeededGenerator(seed: 7)
        for count in [0, 1, 7, 8, 9, 15, 16, 17, 40, 100] {
            for _ in 0..<20 {
                let bytes = (0..<count).map { _ in
                    [UInt8(ascii: "<"), 0x20, 0x3D, 0xBC][Int.random(in: 0..<4, using: &random)]
                }
                bytes.withUnsafeBufferPointer { buffer in
                    for end in -2...(count + 2) {
                        let expected =
                            count == 0 || end < 0 ? nil : bytes[...min(end, count - 1)].lastIndex(of: UInt8(ascii: "<"))
                        XCTAssertEqual(
                            ByteSearch.lastIndex(of: UInt8(ascii: "<"), in: buffer, atOrBefore: end), expected,
                            "\(bytes) up to \(end)")
                    }
                }
            }
        }
    }
}

import Foundation
import XCTest
import ModelLintSupport

/// Programs started side by side from several threads, as a run starts git for the work tree and for a revision at
/// once.
final class SubprocessTests: XCTestCase {
    /// Each `cat` must see the end of its input: no program may hold a copy of another's input pipe. When pipes were
    /// inherited, two `git cat-file --batch` started at once each kept the other's input open, and waited for good.
    func testProgramsStartedAtOnceEachSeeTheEndOfTheirInput() {
        let rounds = 40
        let width = 8
        let outputs = Locked([String]())
        let done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            defer { done.leave() }
            for round in 0..<rounds {
                let answers = concurrentMap(Array(0..<width)) { i -> String in
                    let result = Subprocess.run(
                        "/bin/cat", [], environment: [:], input: Data("\(round).\(i)\n".utf8))
                    return result.map { String(decoding: $0.output, as: UTF8.self) } ?? "not started"
                }
                outputs.withLock { $0 += answers }
            }
        }
        guard done.wait(timeout: .now() + 60) == .success else {
            let finished = outputs.withLock { $0.count }
            return XCTFail("programs started at once waited on each other's input (\(finished) of them finished)")
        }
        XCTAssertEqual(
            outputs.withLock { $0 }, (0..<rounds).flatMap { round in (0..<width).map { "\(round).\($0)\n" } })
    }
}

import Dispatch
import Foundation
import XCTest
import ModelLintSupport

/// `Pending` work that no thread has started runs on the thread that waits for it. Its queue here is suspended, so
/// only the waiter can run it: without that, each test below would wait forever (in a real run, on a machine held
/// to one core, until Dispatch added a thread a second later; a WooCommerce check took 1,041 ms instead of 79).
final class PendingTests: XCTestCase {
    /// Runs `body` on a thread of its own and reports whether it finished (a deadlock fails the test instead of
    /// hanging the suite).
    private func finishes(_ body: @escaping @Sendable () -> Void) -> Bool {
        let finished = DispatchSemaphore(value: 0)
        Thread {
            body()
            finished.signal()
        }.start()
        return finished.wait(timeout: .now() + 30) == .success
    }

    func testWorkNotStartedRunsOnTheWaitingThreadOnce() {
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        let runs = Locked(0)
        let pending = Pending(on: queue) { () -> Int in
            runs.withLock { $0 += 1 }
            return 42
        }
        let value = Locked<Int?>(nil)
        // Left suspended when it does not finish: what waits would wait on.
        guard finishes({ value.withLock { $0 = pending.value } }) else { return XCTFail("the wait did not end") }
        XCTAssertEqual(value.withLock { $0 }, 42)
        // The queued copy finds the work taken and does nothing; waiting again does not run it again.
        queue.resume()
        queue.sync {}
        pending.wait()
        XCTAssertEqual(pending.value, 42)
        XCTAssertEqual(runs.withLock { $0 }, 1)
    }

    func testPendingWorkThatWaitsForPendingWorkFinishes() {
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        let outer = Pending(on: queue) { () -> [Int] in
            let inner = (1...3).map { n in Pending(on: queue) { n * 10 } }
            return inner.map(\.value)
        }
        guard finishes({ outer.wait() }) else { return XCTFail("the wait did not end") }
        XCTAssertEqual(outer.value, [10, 20, 30])
        queue.resume()
    }

    func testWorkStartedElsewhereIsWaitedFor() {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let runs = Locked(0)
        let pending = Pending { () -> String in
            runs.withLock { $0 += 1 }
            started.signal()
            release.wait()
            return "done"
        }
        started.wait()
        // Started on the pool: the waiter waits for that run instead of starting another.
        let value = Locked<String?>(nil)
        let waiter = DispatchSemaphore(value: 0)
        Thread {
            value.withLock { $0 = pending.value }
            waiter.signal()
        }.start()
        XCTAssertEqual(waiter.wait(timeout: .now() + 0.2), .timedOut)
        release.signal()
        XCTAssertEqual(waiter.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(value.withLock { $0 }, "done")
        XCTAssertEqual(runs.withLock { $0 }, 1)
    }
}

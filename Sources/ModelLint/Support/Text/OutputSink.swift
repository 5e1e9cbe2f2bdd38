/// Where a report's bytes go as they are produced: standard output, a file, or memory. Reports of large
/// bundles are written in pieces instead of built whole. The first write error is kept and later writes are
/// dropped, so a reporter never has to handle one; whoever owns the sink checks `error` at the end.
package final class OutputSink {
    private var buffer: [UInt8] = []
    private let drain: (([UInt8]) throws -> Void)?
    private let threshold: Int
    package private(set) var error: Error?
    /// Everything written, for a sink that keeps it in memory.
    package var bytes: [UInt8] { buffer }
    package var string: String { String(decoding: buffer, as: UTF8.self) }
    package var isEmpty: Bool { buffer.isEmpty && !wroteAny }
    private var wroteAny = false
    /// For a terminal or a CI log: everything written passes through the one sanitiser (`LogSafeFilter`).
    private var logSafe: LogSafeFilter?
    private var passing = false

    /// A sink that keeps everything in memory; `logSafe` as standard output and error are.
    package init(logSafe: Bool = false) {
        drain = nil
        threshold = .max
        self.logSafe = logSafe ? LogSafeFilter() : nil
    }

    /// A sink that hands its bytes to `drain` in pieces of about `threshold` bytes.
    package init(threshold: Int = 64 * 1024, logSafe: Bool = false, drain: @escaping ([UInt8]) throws -> Void) {
        self.drain = drain
        self.threshold = threshold
        self.logSafe = logSafe ? LogSafeFilter() : nil
        buffer.reserveCapacity(threshold)
    }

    package func write(_ text: String) {
        guard error == nil else { return }
        if !passing, logSafe != nil {
            logSafe!.filter(text.utf8, into: &buffer)
        } else {
            buffer += text.utf8
        }
        if buffer.count >= threshold { drainBuffer() }
    }

    /// Writes what `body` writes as it is: workflow commands modellint means (the `github` format, which escapes
    /// its own values).
    package func passing(_ body: () -> Void) {
        if logSafe != nil { logSafe!.finish(into: &buffer) }
        passing = true
        body()
        passing = false
    }

    package func write<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard error == nil else { return }
        if !passing, logSafe != nil {
            logSafe!.filter(bytes, into: &buffer)
        } else {
            buffer += bytes
        }
        if buffer.count >= threshold { drainBuffer() }
    }

    /// Everything written so far goes out (a line left open ends as written).
    package func flush() {
        if logSafe != nil, error == nil { logSafe!.finish(into: &buffer) }
        drainBuffer()
    }

    private func drainBuffer() {
        guard let drain, error == nil, !buffer.isEmpty else { return }
        do {
            try drain(buffer)
            wroteAny = true
        } catch {
            self.error = error
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

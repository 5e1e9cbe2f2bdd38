/// Where a report's bytes go as they are produced: standard output, a file, or memory. Reports of large
/// bundles are written in pieces instead of built whole. The first write error is kept and later writes are
/// dropped, so a reporter never has to handle one; whoever owns the sink checks `error` at the end.
public final class OutputSink {
    private var buffer: [UInt8] = []
    private let drain: (([UInt8]) throws -> Void)?
    private let threshold: Int
    public private(set) var error: Error?
    /// Everything written, for a sink that keeps it in memory.
    public var bytes: [UInt8] { buffer }
    public var string: String { String(decoding: buffer, as: UTF8.self) }
    public var isEmpty: Bool { buffer.isEmpty && !wroteAny }
    private var wroteAny = false

    /// A sink that keeps everything in memory.
    public init() {
        drain = nil
        threshold = .max
    }

    /// A sink that hands its bytes to `drain` in pieces of about `threshold` bytes.
    public init(threshold: Int = 64 * 1024, drain: @escaping ([UInt8]) throws -> Void) {
        self.drain = drain
        self.threshold = threshold
        buffer.reserveCapacity(threshold)
    }

    public func write(_ text: String) {
        guard error == nil else { return }
        buffer += text.utf8
        if buffer.count >= threshold { flush() }
    }

    public func write<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard error == nil else { return }
        buffer += bytes
        if buffer.count >= threshold { flush() }
    }

    public func flush() {
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

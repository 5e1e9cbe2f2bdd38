import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The running modellint's executable, as the run cache keys a report by it.
package enum ExecutablePath {
    /// On Linux, where the kernel says (`/proc/self/exe`): Foundation's main bundle lists the folder the executable
    /// is in to find its version, a cost that grows with a shared bin folder (8,800 entries in one measured: 21 M
    /// instructions, half of a run answered from the cache). Elsewhere, Foundation's answer.
    package static var current: String? {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 {
                return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        #endif
        return Bundle.main.executablePath
    }
}

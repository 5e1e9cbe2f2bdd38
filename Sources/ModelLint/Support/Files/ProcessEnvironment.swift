import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The process's environment variables, read when asked (a test may set one): Foundation's
/// `ProcessInfo.environment` on Linux builds its dictionary with more work than a short run's whole code scan,
/// and a run asks for it once per git command.
package enum ProcessEnvironment {
    /// One variable; nil when it is not set.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Every variable; of two entries with one name, the first (as `getenv` answers).
    package static func all() -> [String: String] {
        #if canImport(Glibc) || canImport(Musl)
            var variables: [String: String] = [:]
            var entry = environ
            while let pointer = entry.pointee {
                let length = strlen(pointer)
                pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                    let text = UnsafeBufferPointer(start: bytes, count: length)
                    guard let equals = text.firstIndex(of: 0x3D) else { return }
                    let name = String(decoding: text[..<equals], as: UTF8.self)
                    if variables[name] == nil {
                        variables[name] = String(decoding: text[(equals + 1)...], as: UTF8.self)
                    }
                }
                entry += 1
            }
            return variables
        #else
            return ProcessInfo.processInfo.environment
        #endif
    }
}

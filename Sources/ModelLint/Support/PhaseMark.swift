import Foundation
#if canImport(Glibc)
    import Glibc
#endif

package let phaseMarksOn = ProcessInfo.processInfo.environment["ML_MARKS"] != nil
package let phaseStart = DispatchTime.now().uptimeNanoseconds
package func phaseMark(_ label: String) {
    guard phaseMarksOn else { return }
    let start = phaseStart
    let t = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let c =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
    FileHandle.standardError.write("MARK \(label) \(t) \(c)\n".data(using: .utf8)!)
}

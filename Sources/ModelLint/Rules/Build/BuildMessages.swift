import Foundation
import ModelLintModel
import ModelLintCompiled

/// What the build rules share: where a compiled model's files are, and hashes as Core Data's files show them.
package enum BuildText {
    package static func base64(_ hash: [UInt8]?) -> String { hash.map { Data($0).base64EncodedString() } ?? "none" }

    package static func versionInfo(_ build: CompiledModel) -> SourceLocation {
        SourceLocation(file: build.path + "/VersionInfo.plist")
    }

    package static func compiledFile(_ version: CompiledVersion) -> SourceLocation {
        SourceLocation(file: version.path)
    }

    package static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: return ""
        case 1: return names[0]
        case 2: return "\(names[0]) and \(names[1])"
        default: return names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
    }
}

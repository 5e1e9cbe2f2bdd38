import Foundation
import ModelLintSupport

/// Reads the Swift files a run found and builds their SwiftData schema sets, one module at a time: a file is
/// parsed only when a byte search finds SwiftData's words in it, and files of test targets are not the app's.
public enum SwiftDataLoader {
    /// Swift files larger than this are not read (generated code, vendored blobs): named in the run's notices.
    public static let sizeLimit = 8 << 20

    public struct Loaded: Sendable {
        public var sets: [SwiftSchemaSet] = []
        /// Files over `sizeLimit`, as displayed.
        public var tooLarge: [String] = []
        /// Files that mention SwiftData and were parsed.
        public var parsed = 0
    }

    /// `files` are absolute paths found under `root`; `display` turns one into its displayed form.
    public static func load(_ files: [String], root: String, display: (String) -> String) -> Loaded {
        var loaded = Loaded()
        var modules: [String: [SwiftSourceFile]] = [:]
        var moduleOrder: [String] = []
        for file in files where !SwiftDataReader.Reading.isTestPath(file) {
            let data: Data
            do {
                data = try FileReader.read(file, limit: sizeLimit)
            } catch FileReader.ReadError.tooLarge {
                loaded.tooLarge.append(display(file))
                continue
            } catch {
                continue
            }
            let bytes = [UInt8](data)
            guard SwiftDataReader.mentionsSwiftData(bytes) else { continue }
            loaded.parsed += 1
            let module = moduleName(of: file, root: root)
            if modules[module] == nil { moduleOrder.append(module) }
            modules[module, default: []].append(SwiftSourceFile(path: display(file), bytes: bytes))
        }
        for module in moduleOrder {
            loaded.sets += SwiftDataReader.schemaSets(modules[module] ?? [], moduleName: module)
        }
        return loaded
    }

    /// The files that share one namespace: a Swift package's target (`Sources/<Target>/…`), else everything
    /// under the folder searched (an app's target folders are not known without its project), named by that folder.
    static func moduleName(of file: String, root: String) -> String {
        let parts = file.split(separator: "/").map(String.init)
        if let i = parts.lastIndex(of: "Sources"), i + 2 < parts.count { return parts[i + 1] }
        return root.split(separator: "/").last.map(String.init) ?? "App"
    }
}

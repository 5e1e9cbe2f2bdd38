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
        let foldersWithSwift = Set(files.map { ($0 as NSString).deletingLastPathComponent })
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
            let module = moduleFolder(of: file, root: root, foldersWithSwift: foldersWithSwift)
            if modules[module] == nil { moduleOrder.append(module) }
            modules[module, default: []].append(SwiftSourceFile(path: display(file), bytes: bytes))
        }
        for module in moduleOrder {
            let name = module.split(separator: "/").last.map(String.init) ?? "App"
            loaded.sets += SwiftDataReader.schemaSets(modules[module] ?? [], moduleName: name)
        }
        return loaded
    }

    /// The folder of the files that share one namespace with this one: a Swift package's target
    /// (`Sources/<Target>`), else the topmost folder above it (within the search) that holds Swift files itself, so
    /// an app's `Models/` and `Views/` join the app folder above them while sibling apps stay apart. A target's
    /// folders are not known without its project: this is the nearest reading of the tree.
    static func moduleFolder(of file: String, root: String, foldersWithSwift: Set<String>) -> String {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let i = parts.lastIndex(of: "Sources"), i + 2 < parts.count {
            return parts[...(i + 1)].joined(separator: "/")
        }
        var folder = (file as NSString).deletingLastPathComponent
        var top = folder
        while folder.count > root.count, folder.hasPrefix(root) {
            if foldersWithSwift.contains(folder) { top = folder }
            folder = (folder as NSString).deletingLastPathComponent
        }
        if folder == root, foldersWithSwift.contains(root) { top = root }
        return top
    }
}

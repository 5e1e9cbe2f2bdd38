import Foundation
import ModelLintSupport

/// Reads the Swift files a run found and builds their SwiftData schema sets, one module at a time: a file is
/// parsed only when a byte search finds SwiftData's words in it, and files of test targets are not the app's.
package enum SwiftDataLoader {
    /// Swift files larger than this are not read (generated code, vendored blobs): named in the run's notices.
    package static let sizeLimit = 8 << 20

    package struct Loaded: Sendable {
        package var sets: [SwiftSchemaSet] = []
        /// Files over `sizeLimit`, as displayed.
        package var tooLarge: [String] = []
    }

    /// One file's bytes as the run reads them, once, for every use.
    package enum FileBytes: Sendable {
        case bytes([UInt8])
        case tooLarge
        case unreadable
    }

    package static func read(_ file: String) -> FileBytes {
        do {
            return .bytes([UInt8](try FileReader.read(file, limit: sizeLimit)))
        } catch FileReader.ReadError.tooLarge {
            return .tooLarge
        } catch {
            return .unreadable
        }
    }

    /// The file parsed, when it is an app file that mentions SwiftData.
    package static func parse(_ bytes: [UInt8], file: String, display: () -> String) -> SwiftSourceFile? {
        guard SwiftDataReader.mentionsSwiftData(bytes), !SwiftDataReader.Reading.isTestPath(file) else { return nil }
        return SwiftSourceFile(path: display(), bytes: bytes)
    }

    /// The schema sets of the files found under each root (absolute paths), from the files already parsed.
    package static func sets(_ groups: [(root: String, files: [String])], parsed: (String) -> SwiftSourceFile?)
        -> [SwiftSchemaSet]
    {
        var sets: [SwiftSchemaSet] = []
        for (root, files) in groups {
            var modules: [String: [SwiftSourceFile]] = [:]
            var moduleOrder: [String] = []
            let found = files.compactMap { file in parsed(file).map { (file, $0) } }
            guard !found.isEmpty else { continue }
            let foldersWithSwift = Set(files.map { ($0 as NSString).deletingLastPathComponent })
            for (file, source) in found {
                let module = moduleFolder(of: file, root: root, foldersWithSwift: foldersWithSwift)
                if modules[module] == nil { moduleOrder.append(module) }
                modules[module, default: []].append(source)
            }
            for module in moduleOrder {
                let name = module.split(separator: "/").last.map(String.init) ?? "App"
                sets += SwiftDataReader.schemaSets(modules[module] ?? [], moduleName: name)
            }
        }
        return sets
    }

    /// The `NSManagedObject` subclasses of the files found under each root, from the files already parsed.
    package static func managedObjectClasses(
        _ groups: [(root: String, files: [String])], parsed: (String) -> SwiftSourceFile?
    ) -> [ManagedObjectClass] {
        groups.flatMap { _, files in SwiftDataReader.managedObjectClasses(files.compactMap(parsed)) }
    }

    /// The schema sets of files already read (from disk, a revision, the index), found under `root` by these
    /// absolute paths, each shown as `display` says.
    package static func sets(of files: [(path: String, bytes: [UInt8])], root: String, display: (String) -> String)
        -> [SwiftSchemaSet]
    {
        var parsed: [String: SwiftSourceFile] = [:]
        for (path, bytes) in files { parsed[path] = parse(bytes, file: path) { display(path) } }
        return sets([(root, files.map(\.path))]) { parsed[$0] }
    }

    /// Reads, parses and builds in one go (`hashes`, tests): `files` are absolute paths found under `root`.
    package static func load(_ files: [String], root: String, display: (String) -> String) -> Loaded {
        var loaded = Loaded()
        var read: [(path: String, bytes: [UInt8])] = []
        for file in files {
            switch self.read(file) {
            case .bytes(let bytes): read.append((file, bytes))
            case .tooLarge: loaded.tooLarge.append(display(file))
            case .unreadable: break
            }
        }
        loaded.sets = sets(of: read, root: root, display: display)
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

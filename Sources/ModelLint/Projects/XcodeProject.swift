import Foundation
import ModelLintSupport
import ModelLintModel

/// An Xcode project (`project.pbxproj`, an OpenStep property list) as far as model bundles go: each
/// `XCVersionGroup` (a `.xcdatamodeld`) with its children (the versions), its current version, its resolved
/// path, and whether a target compiles it (a `PBXBuildFile` of it in a `PBXSourcesBuildPhase`).
public struct XcodeProject: Sendable {
    public struct VersionGroup: Sendable, Equatable {
        public var id: String
        /// The group's path, resolved through the group tree, relative to the folder holding the `.xcodeproj`.
        public var path: String
        /// The version folders it lists, by name (`Model 2.xcdatamodel`).
        public var children: [String]
        public var currentVersion: String?
        public var isCompiled: Bool
        /// The line of the group's definition in `project.pbxproj`.
        public var line: Int?
        /// The object ids of the children (in order) and of the current version, for editing the file.
        public var childIDs: [String] = []
        public var currentVersionID: String?
        /// Children the project lists but never defines (a merge that dropped the file reference's object).
        public var danglingChildIDs: [String] = []

        package init(
            id: String, path: String, children: [String], currentVersion: String? = nil, isCompiled: Bool,
            line: Int? = nil, childIDs: [String] = [], currentVersionID: String? = nil, danglingChildIDs: [String] = []
        ) {
            self.danglingChildIDs = danglingChildIDs
            self.id = id
            self.path = path
            self.children = children
            self.currentVersion = currentVersion
            self.isCompiled = isCompiled
            self.line = line
            self.childIDs = childIDs
            self.currentVersionID = currentVersionID
        }
    }

    /// `project.pbxproj` as displayed.
    public var path: String
    public var versionGroups: [VersionGroup]

    public struct ReadError: Error, Equatable, CustomStringConvertible {
        public var description: String

        package init(description: String) {
            self.description = description
        }
    }

    public static func read(path: String, displayPath: String) throws -> XcodeProject {
        let data: Data
        do { data = try FileReader.read(path, limit: FileReader.Limit.dataFile) } catch {
            throw ReadError(description: "\(displayPath): \(error)")
        }
        guard let plist = try? PropertyList.parse(data) as? [String: Any],
            let objects = plist["objects"] as? [String: Any]
        else {
            throw ReadError(description: "\(displayPath) is not an Xcode project file (no objects)")
        }
        return parse(
            objects: objects.compactMapValues { $0 as? [String: Any] }, text: String(decoding: data, as: UTF8.self),
            displayPath: displayPath)
    }

    package static func parse(objects: [String: [String: Any]], text: String, displayPath: String) -> XcodeProject {
        func isa(_ id: String) -> String? { objects[id]?["isa"] as? String }
        // Parents, to resolve a group's path through the group tree.
        var parent: [String: String] = [:]
        for (id, object) in objects {
            for child in object["children"] as? [String] ?? []
            where isa(id) == "PBXGroup" || isa(id) == "PBXVariantGroup" { parent[child] = id }
        }
        func resolvedPath(_ id: String) -> String {
            var components: [String] = []
            var current: String? = id
            var seen = Set<String>()
            while let node = current, seen.insert(node).inserted, let object = objects[node] {
                if let path = object["path"] as? String { components.insert(path, at: 0) }
                // Only paths relative to their group chain up; SOURCE_ROOT and absolute ones end the walk.
                if (object["sourceTree"] as? String ?? "<group>") != "<group>" { break }
                current = parent[node]
            }
            return components.joined(separator: "/")
        }
        let compiledRefs: Set<String> = Set(
            objects.values.filter { $0["isa"] as? String == "PBXSourcesBuildPhase" }
                .flatMap { $0["files"] as? [String] ?? [] }
                .compactMap { objects[$0]?["fileRef"] as? String })
        // The line defining each version group (`ID /* name */ = {`), from one pass over the file.
        let groupIDs = Set(objects.compactMap { $0.value["isa"] as? String == "XCVersionGroup" ? $0.key : nil })
        var definitionLines: [String: Int] = [:]
        for (index, text) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            guard let space = trimmed.firstIndex(of: " ") else { continue }
            let id = String(trimmed[..<space])
            if groupIDs.contains(id), definitionLines[id] == nil, text.contains("= {") {
                definitionLines[id] = index + 1
            }
        }
        func line(of id: String) -> Int? { definitionLines[id] }
        let groups = objects.filter { $0.value["isa"] as? String == "XCVersionGroup" }.map {
            id, object -> VersionGroup in
            func name(_ ref: String) -> String? {
                (objects[ref]?["path"] as? String).map { $0.split(separator: "/").last.map(String.init) ?? $0 }
            }
            return VersionGroup(
                id: id, path: resolvedPath(id), children: (object["children"] as? [String] ?? []).compactMap(name),
                currentVersion: (object["currentVersion"] as? String).flatMap(name),
                isCompiled: compiledRefs.contains(id), line: line(of: id),
                childIDs: object["children"] as? [String] ?? [], currentVersionID: object["currentVersion"] as? String,
                danglingChildIDs: (object["children"] as? [String] ?? []).filter { objects[$0] == nil })
        }.sorted { $0.path < $1.path }
        return XcodeProject(path: displayPath, versionGroups: groups)
    }

    /// The version group for a bundle at `bundlePath` (relative to the project's folder): by resolved path, else
    /// by the bundle's folder name when only one group has it.
    public func group(forBundleAt bundlePath: String) -> VersionGroup? {
        if let exact = versionGroups.first(where: { $0.path == bundlePath }) { return exact }
        let name = bundlePath.split(separator: "/").last.map(String.init) ?? bundlePath
        let named = versionGroups.filter { ($0.path.split(separator: "/").last.map(String.init) ?? $0.path) == name }
        return named.count == 1 ? named[0] : nil
    }
}

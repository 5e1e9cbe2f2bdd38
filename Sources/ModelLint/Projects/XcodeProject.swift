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
        // Xcode writes the OpenStep format; a project saved as XML or binary goes through the general reader.
        let objects: [String: ProjectObject]
        if !data.starts(with: Array("bplist".utf8)) && !data.starts(with: Array("<?xml".utf8)) {
            do { objects = try ProjectFileParser.objects(data) } catch {
                throw ReadError(description: "\(displayPath) is not an Xcode project file (\(error))")
            }
        } else {
            guard let plist = try? PropertyList.parse(data) as? [String: Any],
                let table = plist["objects"] as? [String: Any]
            else {
                throw ReadError(description: "\(displayPath) is not an Xcode project file (no objects)")
            }
            objects = table.compactMapValues { ($0 as? [String: Any]).map(ProjectObject.init) }
        }
        return parse(objects: objects, bytes: [UInt8](data), displayPath: displayPath)
    }

    package static func parse(objects: [String: ProjectObject], text: String, displayPath: String) -> XcodeProject {
        parse(objects: objects, bytes: Array(text.utf8), displayPath: displayPath)
    }

    /// `bytes`: the file, for the line of each version group's definition.
    package static func parse(objects: [String: ProjectObject], bytes: [UInt8], displayPath: String) -> XcodeProject {
        // Parents, to resolve a group's path through the group tree.
        var parent: [String: String] = [:]
        for (id, object) in objects where object.isa == "PBXGroup" || object.isa == "PBXVariantGroup" {
            for child in object.children ?? [] { parent[child] = id }
        }
        func resolvedPath(_ id: String) -> String {
            var components: [String] = []
            var current: String? = id
            var seen = Set<String>()
            while let node = current, seen.insert(node).inserted, let object = objects[node] {
                if let path = object.path { components.insert(path, at: 0) }
                // Only paths relative to their group chain up; SOURCE_ROOT and absolute ones end the walk.
                if (object.sourceTree ?? "<group>") != "<group>" { break }
                current = parent[node]
            }
            return components.joined(separator: "/")
        }
        let compiledRefs: Set<String> = Set(
            objects.values.filter { $0.isa == "PBXSourcesBuildPhase" }
                .flatMap { $0.files ?? [] }
                .compactMap { objects[$0]?.fileRef })
        // The line defining each version group (`ID /* name */ = {`), from one pass over the file.
        let groupIDs = Set(objects.compactMap { $0.value.isa == "XCVersionGroup" ? $0.key : nil })
        var definitionLines: [String: Int] = [:]
        // Over bytes: a project is megabytes of short lines, and only a line whose first word has a group id's
        // length can define one.
        let idLengths = Set(groupIDs.map(\.utf8.count))
        var lineNumber = 1
        var start = 0
        while start < bytes.count {
            let end = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: start) ?? bytes.count
            var word = start
            while word < end && (bytes[word] == UInt8(ascii: " ") || bytes[word] == UInt8(ascii: "\t")) { word += 1 }
            var space = word
            while space < end && bytes[space] != UInt8(ascii: " ") { space += 1 }
            if space < end, idLengths.contains(space - word) {
                let id = String(decoding: bytes[word..<space], as: UTF8.self)
                if groupIDs.contains(id), definitionLines[id] == nil,
                    ByteSearch.firstIndex(of: Array("= {".utf8), in: bytes, from: space, before: end) != nil
                {
                    definitionLines[id] = lineNumber
                }
            }
            lineNumber += 1
            start = end + 1
        }
        func line(of id: String) -> Int? { definitionLines[id] }
        let groups = objects.filter { $0.value.isa == "XCVersionGroup" }.map {
            id, object -> VersionGroup in
            func name(_ ref: String) -> String? {
                objects[ref]?.path.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
            }
            return VersionGroup(
                id: id, path: resolvedPath(id), children: (object.children ?? []).compactMap(name),
                currentVersion: object.currentVersion.flatMap(name),
                isCompiled: compiledRefs.contains(id), line: line(of: id),
                childIDs: object.children ?? [], currentVersionID: object.currentVersion,
                danglingChildIDs: (object.children ?? []).filter { objects[$0] == nil })
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

import Foundation
import ModelLintSupport
import ModelLintModel

/// An Xcode project (`project.pbxproj`, an OpenStep property list) as far as model bundles go: each
/// `XCVersionGroup` (a `.xcdatamodeld`) with its children (the versions), its current version, its resolved
/// path, and whether a target compiles it (a `PBXBuildFile` of it in a `PBXSourcesBuildPhase`).
package struct XcodeProject: Sendable {
    package struct VersionGroup: Sendable, Equatable {
        package var id: String
        /// The group's path, resolved through the group tree, relative to the folder holding the `.xcodeproj`.
        package var path: String
        /// The version folders it lists, by name (`Model 2.xcdatamodel`).
        package var children: [String]
        package var currentVersion: String?
        package var isCompiled: Bool
        /// The line of the group's definition in `project.pbxproj`.
        package var line: Int?
        /// The object ids of the children (in order) and of the current version, for editing the file.
        package var childIDs: [String] = []
        package var currentVersionID: String?
        /// Children the project lists but never defines (a merge that dropped the file reference's object).
        package var danglingChildIDs: [String] = []

        /// As a result cache stores it.
        var json: JSONValue {
            func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
            return .object([
                ("id", .string(id)), ("path", .string(path)), ("children", strings(children)),
                ("currentVersion", currentVersion.map { .string($0) } ?? .null), ("isCompiled", .bool(isCompiled)),
                ("line", line.map { .number(Double($0)) } ?? .null), ("childIDs", strings(childIDs)),
                ("currentVersionID", currentVersionID.map { .string($0) } ?? .null),
                ("danglingChildIDs", strings(danglingChildIDs)),
            ])
        }

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
    package var path: String
    package var versionGroups: [VersionGroup]

    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The project at `path`, from `cache` when the file is unchanged since it was stored (a big project is most
    /// of a pre-commit run's time), else read and stored.
    package static func read(path: String, displayPath: String, cache: ResultCache) throws -> XcodeProject {
        let kind = "projects"
        if let cached = cache.value(for: path, kind: kind), let groups = cached.arrayValue.flatMap(Self.groups) {
            return XcodeProject(path: displayPath, versionGroups: groups)
        }
        let project = try read(path: path, displayPath: displayPath)
        cache.store(.array(project.versionGroups.map(\.json)), for: path, kind: kind)
        return project
    }

    /// Version groups as stored: nil when an entry is not one (the cache entry is then ignored).
    static func groups(_ items: [JSONValue]) -> [VersionGroup]? {
        var groups: [VersionGroup] = []
        for item in items {
            func strings(_ key: String) -> [String]? { item[key]?.arrayValue?.compactMap(\.stringValue) }
            guard let id = item["id"]?.stringValue, let path = item["path"]?.stringValue,
                let children = strings("children"), let isCompiled = item["isCompiled"]?.boolValue,
                let childIDs = strings("childIDs"), let dangling = strings("danglingChildIDs")
            else { return nil }
            groups.append(
                VersionGroup(
                    id: id, path: path, children: children, currentVersion: item["currentVersion"]?.stringValue,
                    isCompiled: isCompiled, line: item["line"]?.intValue, childIDs: childIDs,
                    currentVersionID: item["currentVersionID"]?.stringValue, danglingChildIDs: dangling))
        }
        return groups
    }

    package static func read(path: String, displayPath: String) throws -> XcodeProject {
        let data: Data
        do { data = try FileReader.read(path, limit: FileReader.Limit.dataFile) } catch {
            throw ReadError(description: "\(displayPath): \(error)")
        }
        return try parse(data, displayPath: displayPath)
    }

    /// A project file's bytes. Xcode writes the OpenStep format; a project saved as XML or binary goes through the
    /// general reader (and its groups have no line).
    package static func parse(_ data: Data, displayPath: String) throws -> XcodeProject {
        if !data.starts(with: Array("bplist".utf8)) && !data.starts(with: Array("<?xml".utf8)) {
            let table: (objects: [String: ProjectObject], groupOffsets: [String: Int])
            do { table = try ProjectFileParser.table(data) } catch {
                throw ReadError(description: "\(displayPath) is not an Xcode project file (\(error))")
            }
            let lines = table.groupOffsets.isEmpty ? [:] : Self.lines(of: table.groupOffsets, in: data)
            return parse(objects: table.objects, definitionLines: lines, displayPath: displayPath)
        }
        guard let plist = try? PropertyList.parse(data) as? [String: Any],
            let table = plist["objects"] as? [String: Any]
        else {
            throw ReadError(description: "\(displayPath) is not an Xcode project file (no objects)")
        }
        return parse(
            objects: table.compactMapValues { ($0 as? [String: Any]).map(ProjectObject.init) }, definitionLines: [:],
            displayPath: displayPath)
    }

    /// The line of each offset, from one count of the newlines before the last of them.
    static func lines(of offsets: [String: Int], in data: Data) -> [String: Int] {
        let sorted = offsets.sorted { $0.value < $1.value }
        var lines: [String: Int] = [:]
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var line = 1
            var at = 0
            for (id, offset) in sorted {
                let end = min(offset, bytes.count)
                while at < end {
                    if bytes[at] == UInt8(ascii: "\n") { line += 1 }
                    at += 1
                }
                lines[id] = line
            }
        }
        return lines
    }

    /// `definitionLines`: the line defining each version group (`ID /* name */ = {`).
    static func parse(objects: [String: ProjectObject], definitionLines: [String: Int], displayPath: String)
        -> XcodeProject
    {
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
    package func group(forBundleAt bundlePath: String) -> VersionGroup? {
        if let exact = versionGroups.first(where: { $0.path == bundlePath }) { return exact }
        let name = bundlePath.split(separator: "/").last.map(String.init) ?? bundlePath
        let named = versionGroups.filter { ($0.path.split(separator: "/").last.map(String.init) ?? $0.path) == name }
        return named.count == 1 ? named[0] : nil
    }
}

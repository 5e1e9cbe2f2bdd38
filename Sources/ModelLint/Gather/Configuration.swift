import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules

/// A rule's configured level: a severity, or off.
package enum RuleLevel: Equatable, Sendable {
    case off
    case severity(Severity)

    package init?(_ text: String) {
        if text == "off" {
            self = .off
        } else if let s = Severity(rawValue: text) {
            self = .severity(s)
        } else {
            return nil
        }
    }
}

package struct BundleSettings: Equatable, Sendable {
    package var versionOrder: [String]?
    package var cloudKit: Bool?
    package var retired: [Retirement] = []
    /// Renames the team declares: `check` holds each version from the renaming one on to carry the old element's
    /// renaming identifier, and `fix` writes it.
    package var renamed: [DeclaredRename] = []
    /// The oldest version whose stores the app still migrates (`oldestMigratedVersion`): earlier ones were
    /// abandoned (a new store file, say), so no pair starting before it is compared and nothing about them reported.
    package var oldestMigratedVersion: String?
    /// How the app migrates this bundle's stores (`migration` under the bundle's key): outranks the top-level
    /// `migration` and what the app's code shows.
    package var migration: MigrationMode?
    /// Where these settings are in the configuration (`bundles.App/Model.xcdatamodeld`), for error messages.
    package var keyPath: String = ""

    /// "did you mean X? " for a version name with a typo; none for one that differs only in its numbers (`Model 9`
    /// is another version, not a misspelt `Model 1`).
    static func meantVersion(_ name: String, in names: [String]) -> String {
        guard let meant = Spelling.closest(to: name, in: names),
            meant.filter({ !$0.isNumber }) != name.filter({ !$0.isNumber })
        else { return "" }
        return "did you mean \(meant)? "
    }

    /// Names the configuration gives must name something in the bundle: a typo would silently do nothing
    /// (a retirement never enforced, an interim version never reached, an order never applied).
    package func validate(against bundle: ModelBundle, file: String) throws {
        func fail(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, keyPath: path, message: message)
        }
        let names = bundle.versions.map(\.name)
        let list = names.joined(separator: ", ")
        for (i, name) in (versionOrder ?? []).enumerated() where !names.contains(where: { $0.isExactly(name) }) {
            throw fail(
                "\(keyPath).versionOrder[\(i)]",
                "\(name) is not a version of the bundle (\(Self.meantVersion(name, in: names))versions: \(list))")
        }
        if let oldest = oldestMigratedVersion, !names.contains(where: { $0.isExactly(oldest) }) {
            throw fail(
                "\(keyPath).oldestMigratedVersion",
                "\(oldest) is not a version of the bundle (\(Self.meantVersion(oldest, in: names))versions: \(list))")
        }
        for (i, retirement) in retired.enumerated() {
            if let interim = retirement.interimVersion, !names.contains(where: { $0.isExactly(interim) }) {
                throw fail(
                    "\(keyPath).retired[\(i)].interimVersion",
                    "\(interim) is not a version of the bundle (\(Self.meantVersion(interim, in: names))versions: \(list))"
                )
            }
            let models = bundle.versions.compactMap(\.model)
            guard !models.isEmpty else { continue }
            let entityExists = models.contains { $0.entities.contains { $0.name == retirement.entity } }
            guard entityExists else {
                let entities = Set(models.flatMap { $0.entities.map(\.name) }).sorted()
                throw fail(
                    "\(keyPath).retired[\(i)].entity",
                    "no version of the bundle has an entity named \(retirement.entity)"
                        + (Spelling.closest(to: retirement.entity, in: entities).map { " (did you mean \($0)?)" } ?? "")
                )
            }
            let propertyExists = models.contains {
                $0.entities.contains {
                    $0.name == retirement.entity && $0.properties.contains { $0.name == retirement.property }
                }
            }
            guard propertyExists else {
                let properties = Set(
                    models.flatMap {
                        $0.entities.filter { $0.name == retirement.entity }.flatMap { $0.properties.map(\.name) }
                    }
                ).sorted()
                throw fail(
                    "\(keyPath).retired[\(i)].property",
                    "no version of the bundle has \(retirement.entity).\(retirement.property)"
                        + (Spelling.closest(to: retirement.property, in: properties).map { " (did you mean \($0)?)" }
                            ?? ""))
            }
            if let replacement = retirement.replacedBy,
                !models.contains(where: {
                    $0.entities.contains {
                        $0.name == retirement.entity && $0.properties.contains { $0.name == replacement }
                    }
                })
            {
                throw fail(
                    "\(keyPath).retired[\(i)].replacedBy",
                    "no version of the bundle has \(retirement.entity).\(replacement)")
            }
        }
        for (i, rename) in renamed.enumerated() {
            try validate(rename, at: "\(keyPath).renamed[\(i)]", against: bundle, file: file)
        }
    }

    /// A declared rename names a version, the element as that version names it, and the element the version before
    /// it had: each must exist, or the declaration would silently do nothing.
    private func validate(_ rename: DeclaredRename, at path: String, against bundle: ModelBundle, file: String) throws {
        func fail(_ key: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, keyPath: "\(path).\(key)", message: message)
        }
        let names = bundle.versions.map(\.name)
        guard let index = bundle.versions.firstIndex(where: { $0.name.isExactly(rename.version) }) else {
            throw fail(
                "version",
                "\(rename.version) is not a version of the bundle (\(Self.meantVersion(rename.version, in: names))versions: \(names.joined(separator: ", ")))"
            )
        }
        guard let model = bundle.versions[index].model else { return }
        guard let entity = model.entity(named: rename.entity) else {
            throw fail(
                "entity",
                "\(rename.version) has no entity named \(rename.entity)"
                    + (Spelling.closest(to: rename.entity, in: model.entities.map(\.name)).map {
                        " (did you mean \($0)?)"
                    }
                        ?? ""))
        }
        if let property = rename.property, !entity.properties.contains(where: { $0.name == property }) {
            throw fail(
                "property",
                "\(rename.entity) in \(rename.version) has no property named \(property)"
                    + (Spelling.closest(to: property, in: entity.properties.map(\.name)).map {
                        " (did you mean \($0)?)"
                    }
                        ?? ""))
        }
        guard let previous = bundle.versions[..<index].last(where: { $0.model != nil })?.model else {
            throw fail("version", "no readable version comes before \(rename.version) to rename from")
        }
        let before = bundle.versions[..<index].last(where: { $0.model != nil })!.name
        let candidates: [String]
        if rename.property != nil {
            let older =
                previous.entities.first { $0.renamingIdentifier == entity.renamingIdentifier }
                ?? previous.entity(named: rename.entity)
            candidates = older?.properties.map(\.name) ?? []
        } else {
            candidates = previous.entities.map(\.name)
        }
        guard candidates.contains(rename.from) else {
            throw fail(
                "from",
                "\(before) has no \(rename.property == nil ? "entity" : "property of \(rename.entity)") named \(rename.from)"
                    + (Spelling.closest(to: rename.from, in: candidates).map { " (did you mean \($0)?)" } ?? ""))
        }
    }
    package init(versionOrder: [String]? = nil, cloudKit: Bool? = nil, retired: [Retirement] = [], keyPath: String = "")
    {
        self.versionOrder = versionOrder
        self.cloudKit = cloudKit
        self.retired = retired
        self.keyPath = keyPath
    }
}

/// `.modellint.json` (cli.md "Configuration"). Every key is checked: a typo is an error, never ignored.
package struct Configuration: Sendable {
    /// The configuration file, when one was read.
    package var filePath: String?
    /// The folder bundle paths and `exclude` globs are relative to.
    package var baseDirectory: String
    package var migration: MigrationMode = .direct
    /// `baseline`: the `--baseline` default (absolute).
    package var baseline: String?
    /// `projects`: the `.xcodeproj` folders to check (absolute); nil: those found near each bundle; []: none.
    package var projects: [String]?
    /// `goldenStores`: globs, relative to the configuration's folder, of store fixtures written by shipped builds.
    package var goldenStores: [String] = []
    /// Whether the file said how the app migrates (`progressive-migration-likely` asks only when nothing did).
    package var migrationConfigured = false
    package var rules: [String: RuleLevel] = [:]
    package var exclude: [String] = []
    /// Extra folders searched for `.xcmappingmodel` bundles (absolute).
    package var mappingModels: [String] = []
    /// Keyed by the bundle's standardized absolute path.
    package var bundles: [String: BundleSettings] = [:]
    /// `includeUnshipped`: bundles nothing builds are judged at full severity (`--include-unshipped`).
    package var includeUnshipped = false
    /// Folders one run may list while searching for bundles and the files around them (`walkBudget`).
    package var walkBudget = DirectoryWalker.defaultBudget

    package init(baseDirectory: String) {
        self.baseDirectory = PathTools.standardize(baseDirectory)
    }

    package func settings(forBundleAt absolutePath: String) -> BundleSettings? { bundles[absolutePath] }

    package static let fileName = ".modellint.json"

    /// The nearest `.modellint.json` walking up from `directory`.
    package static func find(from directory: String) -> String? {
        PathTools.nearest(fileName, from: directory)
    }

    package static func load(path: String, knownRuleIDs: Set<String>) throws -> Configuration {
        let data: Data
        do {
            data = try FileReader.read(path, limit: FileReader.Limit.smallFile)
        } catch {
            throw ConfigurationError(file: path, keyPath: nil, message: "\(error)")
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw ConfigurationError(file: path, keyPath: nil, message: "\(error)")
        }
        let base = (PathTools.standardize(path) as NSString).deletingLastPathComponent
        var configuration = try parse(json, baseDirectory: base, knownRuleIDs: knownRuleIDs, file: path)
        configuration.filePath = path
        return configuration
    }

    /// The keys each level of a configuration may hold (docs/configuration.schema.json lists the same; a test
    /// holds them equal), as an unknown key's error lists them. `$schema` is accepted and ignored besides.
    package static let topLevelKeys = [
        "migration", "rules", "exclude", "mappingModels", "bundles", "baseline", "goldenStores", "projects",
        "walkBudget", "includeUnshipped", "allowNestedOverrides",
    ]
    package static let bundleKeys = [
        "versionOrder", "cloudKit", "retired", "renamed", "oldestMigratedVersion", "migration",
    ]
    package static let retiredKeys = ["entity", "property", "replacedBy", "interimVersion"]
    package static let renamedKeys = ["entity", "property", "from", "version"]

    package static func parse(_ json: JSONValue, baseDirectory: String, knownRuleIDs: Set<String>, file: String) throws
        -> Configuration
    {
        func fail(_ keyPath: String?, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, keyPath: keyPath, message: message)
        }
        guard let top = json.objectValue else { throw fail(nil, "the configuration must be a JSON object") }
        var configuration = Configuration(baseDirectory: baseDirectory)
        for (key, value) in top {
            switch key {
            case "migration":
                guard let text = value.stringValue, let mode = MigrationMode(rawValue: text) else {
                    throw fail("migration", "must be \"direct\" or \"progressive\"")
                }
                configuration.migration = mode
                configuration.migrationConfigured = true
            case "includeUnshipped":
                guard let flag = value.boolValue else { throw fail("includeUnshipped", "must be true or false") }
                configuration.includeUnshipped = flag
            case "allowNestedOverrides":
                // Read by gate runs from the revision's root configuration (`ConfigurationFloor`).
                guard value.boolValue != nil else { throw fail("allowNestedOverrides", "must be true or false") }
            case "rules":
                guard let pairs = value.objectValue else {
                    throw fail("rules", "must be an object of rule id to severity")
                }
                for (id, level) in pairs {
                    guard knownRuleIDs.contains(id) else {
                        throw fail(
                            "rules.\(id)",
                            "unknown rule id (\(Spelling.didYouMean(id, in: knownRuleIDs.sorted()))modellint rules lists them)"
                        )
                    }
                    guard let text = level.stringValue, let parsed = RuleLevel(text) else {
                        throw fail("rules.\(id)", "must be one of off, note, warning, error")
                    }
                    configuration.rules[id] = parsed
                }
            case "exclude":
                guard let items = value.arrayValue else { throw fail("exclude", "must be an array of glob patterns") }
                configuration.exclude = try items.enumerated().map { i, item in
                    guard let s = item.stringValue else { throw fail("exclude[\(i)]", "must be a string") }
                    return s
                }
            case "mappingModels":
                guard let items = value.arrayValue else { throw fail("mappingModels", "must be an array of folders") }
                configuration.mappingModels = try items.enumerated().map { i, item in
                    guard let folder = item.stringValue else {
                        throw fail("mappingModels[\(i)]", "must be a folder path")
                    }
                    let absolute = PathTools.absolute(folder, relativeTo: baseDirectory)
                    // Searched recursively: a folder outside the project ("/") would walk the whole machine.
                    guard PathTools.relative(absolute, to: baseDirectory) != nil else {
                        throw fail(
                            "mappingModels[\(i)]",
                            "\(folder) is outside the folder holding the configuration; mapping model folders must be inside the project"
                        )
                    }
                    guard FileReader.kind(at: absolute) == .directory else {
                        throw fail("mappingModels[\(i)]", "no folder at \(folder)")
                    }
                    return absolute
                }
            case "bundles":
                guard let pairs = value.objectValue else {
                    throw fail("bundles", "must be an object keyed by bundle path")
                }
                for (bundlePath, settings) in pairs {
                    let keyPath = "bundles.\(bundlePath)"
                    let absolute = PathTools.absolute(bundlePath, relativeTo: baseDirectory)
                    guard FileReader.kind(at: absolute) == .directory else {
                        throw fail(keyPath, "no bundle at \(bundlePath) (paths are relative to the configuration file)")
                    }
                    var parsed = try parseBundle(settings, keyPath: keyPath, fail: fail)
                    parsed.keyPath = keyPath
                    configuration.bundles[absolute] = parsed
                }
            case "goldenStores":
                guard let items = value.arrayValue else {
                    throw fail("goldenStores", "must be an array of glob patterns")
                }
                configuration.goldenStores = try items.enumerated().map { i, item in
                    guard let s = item.stringValue, !s.isEmpty else {
                        throw fail("goldenStores[\(i)]", "must be a glob pattern")
                    }
                    return s
                }
            case "projects":
                guard let items = value.arrayValue else {
                    throw fail("projects", "must be an array of .xcodeproj paths ([] turns the project checks off)")
                }
                configuration.projects = try items.enumerated().map { i, item in
                    guard let path = item.stringValue, path.hasSuffix(".xcodeproj") else {
                        throw fail("projects[\(i)]", "must be the path of an .xcodeproj")
                    }
                    let absolute = PathTools.absolute(path, relativeTo: baseDirectory)
                    guard FileReader.kind(at: absolute + "/project.pbxproj") == .regular else {
                        throw fail("projects[\(i)]", "no project at \(path)")
                    }
                    return absolute
                }
            case "walkBudget":
                guard let number = value.intValue, number >= 1, number <= 100_000_000 else {
                    throw fail("walkBudget", "must be a whole number of folders from 1 to 100000000")
                }
                configuration.walkBudget = number
            case "baseline":
                guard let path = value.stringValue, !path.isEmpty else {
                    throw fail("baseline", "must be the baseline file's path")
                }
                configuration.baseline = PathTools.absolute(path, relativeTo: baseDirectory)
            case "$schema":
                // Where an editor finds docs/configuration.schema.json: nothing modellint reads.
                guard value.stringValue != nil else { throw fail("$schema", "must be the schema's location") }
            default:
                let keys = topLevelKeys
                throw fail(
                    key, "unknown key (\(Spelling.didYouMean(key, in: keys))expected \(keys.joined(separator: ", ")))")
            }
        }
        return configuration
    }

    private static func parseBundle(
        _ value: JSONValue, keyPath: String, fail: (String?, String) -> ConfigurationError
    ) throws -> BundleSettings {
        guard let pairs = value.objectValue else { throw fail(keyPath, "must be an object") }
        var settings = BundleSettings()
        for (key, item) in pairs {
            let path = "\(keyPath).\(key)"
            switch key {
            case "versionOrder":
                guard let items = item.arrayValue else { throw fail(path, "must be an array of version names") }
                settings.versionOrder = try items.enumerated().map { i, name in
                    guard let s = name.stringValue else { throw fail("\(path)[\(i)]", "must be a version name") }
                    return s.hasSuffix(".xcdatamodel") ? String(s.dropLast(".xcdatamodel".count)) : s
                }
            case "cloudKit":
                guard let b = item.boolValue else { throw fail(path, "must be true or false") }
                settings.cloudKit = b
            case "migration":
                guard let text = item.stringValue, let mode = MigrationMode(rawValue: text) else {
                    throw fail(path, "must be \"direct\" or \"progressive\"")
                }
                settings.migration = mode
            case "oldestMigratedVersion":
                guard let name = item.stringValue, !name.isEmpty else { throw fail(path, "must be a version name") }
                settings.oldestMigratedVersion =
                    name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
            case "retired":
                guard let items = item.arrayValue else { throw fail(path, "must be an array") }
                settings.retired = try items.enumerated().map { i, entry in
                    let entryPath = "\(path)[\(i)]"
                    guard let fields = entry.objectValue else { throw fail(entryPath, "must be an object") }
                    var values: [String: String] = [:]
                    for (field, fieldValue) in fields {
                        let keys = retiredKeys
                        guard keys.contains(field) else {
                            throw fail(
                                "\(entryPath).\(field)",
                                "unknown key (\(Spelling.didYouMean(field, in: keys))expected \(keys.joined(separator: ", ")))"
                            )
                        }
                        guard let s = fieldValue.stringValue else {
                            throw fail("\(entryPath).\(field)", "must be a string")
                        }
                        values[field] = s
                    }
                    guard let entity = values["entity"] else { throw fail("\(entryPath).entity", "is required") }
                    guard let property = values["property"] else { throw fail("\(entryPath).property", "is required") }
                    return Retirement(
                        entity: entity, property: property, replacedBy: values["replacedBy"],
                        interimVersion: values["interimVersion"])
                }
            case "renamed":
                guard let items = item.arrayValue else { throw fail(path, "must be an array") }
                settings.renamed = try items.enumerated().map { i, entry in
                    let entryPath = "\(path)[\(i)]"
                    guard let fields = entry.objectValue else { throw fail(entryPath, "must be an object") }
                    var values: [String: String] = [:]
                    for (field, fieldValue) in fields {
                        let keys = renamedKeys
                        guard keys.contains(field) else {
                            throw fail(
                                "\(entryPath).\(field)",
                                "unknown key (\(Spelling.didYouMean(field, in: keys))expected \(keys.joined(separator: ", ")))"
                            )
                        }
                        guard let s = fieldValue.stringValue, !s.isEmpty else {
                            throw fail("\(entryPath).\(field)", "must be a non-empty string")
                        }
                        values[field] = s
                    }
                    for required in ["entity", "from", "version"] where values[required] == nil {
                        throw fail("\(entryPath).\(required)", "is required")
                    }
                    let version = values["version"]!
                    return DeclaredRename(
                        entity: values["entity"]!, property: values["property"], from: values["from"]!,
                        version: version.hasSuffix(".xcdatamodel")
                            ? String(version.dropLast(".xcdatamodel".count)) : version)
                }
            default:
                let keys = bundleKeys
                throw fail(
                    path, "unknown key (\(Spelling.didYouMean(key, in: keys))expected \(keys.joined(separator: ", ")))")
            }
        }
        return settings
    }
}

package struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    package var file: String
    package var keyPath: String?
    package var message: String
    package var description: String {
        "\(file): " + (keyPath.map { "\($0): " } ?? "") + message
    }

    package init(file: String, keyPath: String?, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }
}

extension Configuration {
    /// The configured severity of a rule for a finding (nil: the rule is off).
    package func severity(of rule: RuleDescription, finding: Finding) -> Severity? {
        switch rules[rule.id] {
        case .off?: return nil
        case .severity(let configured)?: return configured
        case nil: return finding.severity ?? rule.severity
        }
    }
}

import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintHistory

/// A gate run's floor: the configuration, lock file and baseline at the revision the gate compares with are what
/// the change is held to. A pull request that adds a `.modellint.json` turning a rule off, empties a lock file or
/// adds baseline entries changes the verdicts of the very run that gates it; each such change is found here, by
/// comparing the settings in force for each judged bundle with the ones that governed it at the revision, and
/// judged as a finding of its own.
package enum ConfigurationFloor {
    /// One configuration or lock file: its path as displayed, its folder relative to the repository's top (bundle
    /// keys and globs in it are relative to that folder), and its parsed text.
    package struct SettingsFile: Sendable {
        package var display: String
        package var folder: String
        package var json: JSONValue
        /// Key paths (`rules\u{1F}id`) to 1-based lines.
        package var keyLines: [String: Int]

        package init(display: String, folder: String, bytes: Data) throws {
            self.display = display
            self.folder = folder
            (json, keyLines) = try JSONValue.parseLocated(bytes)
        }

        func line(_ path: String...) -> Int? {
            var components = path
            while !components.isEmpty {
                if let line = keyLines[JSONParser.keyPath(components)] { return line }
                components.removeLast()
            }
            return nil
        }

        /// A path written in this file, relative to the repository's top.
        func fromTop(_ relative: String) -> String {
            let joined = folder.isEmpty ? relative : folder + "/" + relative
            return PathTools.relative(PathTools.absolute(joined, relativeTo: "/"), to: "/") ?? joined
        }
    }

    /// The settings one bundle answers to, on one side: configuration, lock file, baseline entries.
    package struct Side: Sendable {
        package var configuration: SettingsFile?
        package var lock: SettingsFile?
        /// The baseline's file and its entries (each as written); nil: no baseline.
        package var baseline: (display: String, entries: Set<String>)?
        /// At the revision: its root configuration sets `allowNestedOverrides` (the configuration governing the
        /// bundle there may set it too).
        package var overridesAllowed = false

        package init(configuration: SettingsFile? = nil, lock: SettingsFile? = nil) {
            self.configuration = configuration
            self.lock = lock
        }
    }

    /// What the change does to one bundle's settings (`bundle`: relative to the repository's top), weakest first
    /// by file. `defaults`: each rule's severity when no configuration names it.
    package static func changes(
        bundle: String, before: Side, after: Side, revision: String, defaults: [String: Severity]
    ) -> [ConfigurationChange] {
        let allowed = before.overridesAllowed || before.configuration?.json["allowNestedOverrides"]?.boolValue == true
        var found: [ConfigurationChange] = []
        func add(
            _ file: SettingsFile?, _ line: Int?, _ key: String, _ effect: ConfigurationChange.Effect, _ what: String
        ) {
            let display = file?.display ?? after.configuration?.display ?? before.configuration?.display ?? "?"
            found.append(
                ConfigurationChange(
                    file: display, line: line, key: key, effect: effect, description: what, revision: revision,
                    overridesAllowed: allowed))
        }
        let was = before.configuration
        let now = after.configuration
        let where_ = now ?? was
        compareRules(was, now, defaults: defaults, revision: revision) { add(where_, $0, $1, $2, $3) }
        if was?.json["includeUnshipped"]?.boolValue == true, now?.json["includeUnshipped"]?.boolValue != true {
            add(
                where_, now?.line("includeUnshipped"), "includeUnshipped", .loosens,
                "stops judging unshipped bundles at full severity")
        }
        let migrationBefore = was?.json["migration"]?.stringValue
        let migrationAfter = now?.json["migration"]?.stringValue
        if migrationBefore != migrationAfter {
            add(
                where_, now?.line("migration"), "migration", .loosens,
                "changes migration from \(migrationBefore ?? "unset") to \(migrationAfter ?? "unset")")
        }
        let excludedBefore = Set(globs(was))
        for glob in globs(now) where !excludedBefore.contains(glob) {
            add(where_, now?.line("exclude"), "exclude", .loosens, "adds the exclude glob \(glob)")
        }
        compareBundleSettings(bundle, was, now) { add(where_, $0, $1, .loosens, $2) }
        compareLocks(bundle, before.lock, after.lock) { file, line, key, what in
            add(file, line, key, .removesLockRecord, what)
        }
        if let added = after.baseline.map({ $0.entries.subtracting(before.baseline?.entries ?? []) }), !added.isEmpty {
            let name = after.baseline!.display
            found.append(
                ConfigurationChange(
                    file: name, line: nil, key: "findings", effect: .loosens,
                    description:
                        "adds \(added.count) baseline entr\(added.count == 1 ? "y" : "ies"), which hide their findings",
                    revision: revision, overridesAllowed: allowed))
        }
        return found
    }

    /// Rules whose level drops: off, or below error where the revision had them at error, silences them.
    static func compareRules(
        _ was: SettingsFile?, _ now: SettingsFile?, defaults: [String: Severity], revision: String,
        _ add: (Int?, String, ConfigurationChange.Effect, String) -> Void
    ) {
        func levels(_ file: SettingsFile?) -> [String: String] {
            var result: [String: String] = [:]
            for (id, level) in file?.json["rules"]?.objectValue ?? [] { result[id] = level.stringValue }
            return result
        }
        func rank(_ level: String) -> Int { ["off": -1, "note": 0, "warning": 1, "error": 2][level] ?? 2 }
        let before = levels(was)
        let after = levels(now)
        for id in Set(before.keys).union(after.keys).sorted() {
            let standard = defaults[id]?.rawValue ?? "error"
            let from = before[id] ?? standard
            let to = after[id] ?? standard
            guard rank(to) < rank(from) else { continue }
            let silences = to == "off" || (from == "error" && rank(to) < rank("error"))
            let what =
                to == "off"
                ? "turns \(id) off (\(from) at \(revision))" : "lowers \(id) from \(from) (at \(revision)) to \(to)"
            add(now?.line("rules", id) ?? now?.line("rules"), "rules.\(id)", silences ? .silencesRule : .loosens, what)
        }
    }

    /// `exclude` globs, relative to the repository's top.
    static func globs(_ file: SettingsFile?) -> [String] {
        guard let file else { return [] }
        return (file.json["exclude"]?.arrayValue ?? []).compactMap(\.stringValue).map(file.fromTop)
    }

    /// The bundle's own settings that stop comparisons or change which ones are made.
    static func compareBundleSettings(
        _ bundle: String, _ was: SettingsFile?, _ now: SettingsFile?, _ add: (Int?, String, String) -> Void
    ) {
        func settings(_ file: SettingsFile?) -> (key: String, value: JSONValue)? {
            for (key, value) in file?.json["bundles"]?.objectValue ?? [] where file!.fromTop(key) == bundle {
                return (key, value)
            }
            return nil
        }
        let before = settings(was)?.value
        guard let (key, after) = settings(now) else { return }
        let line = now?.line("bundles", key)
        let oldest = after["oldestMigratedVersion"]?.stringValue
        if let oldest, oldest != before?["oldestMigratedVersion"]?.stringValue {
            add(
                line, "bundles.\(key).oldestMigratedVersion",
                "sets oldestMigratedVersion to \(oldest): no earlier version is compared")
        }
        if after["cloudKit"]?.boolValue == false, before?["cloudKit"]?.boolValue != false {
            add(line, "bundles.\(key).cloudKit", "sets cloudKit to false: the CloudKit rules stop")
        }
        for field in ["migration", "versionOrder"] where after[field] != nil && after[field] != before?[field] {
            add(line, "bundles.\(key).\(field)", "changes \(field)")
        }
    }

    /// Shipped-version records the revision's lock file holds for the bundle and the one in force now does not
    /// hold, or holds with other digests.
    static func compareLocks(
        _ bundle: String, _ was: SettingsFile?, _ now: SettingsFile?,
        _ add: (SettingsFile?, Int?, String, String) -> Void
    ) {
        func records(_ file: SettingsFile?) -> (key: String, versions: [String: JSONValue])? {
            for (key, value) in file?.json["bundles"]?.objectValue ?? [] where file!.fromTop(key) == bundle {
                var versions: [String: JSONValue] = [:]
                for (name, digest) in value["versions"]?.objectValue ?? [] { versions[name] = digest }
                return (key, versions)
            }
            return nil
        }
        guard let before = records(was), !before.versions.isEmpty else { return }
        let after = records(now)
        let file = now ?? was
        let line = after.flatMap { now?.line("bundles", $0.key) }
        let removed = before.versions.keys.filter { after?.versions[$0] == nil }.sorted()
        let rewritten = before.versions.keys.filter {
            if let digest = after?.versions[$0] { return digest != before.versions[$0] } else { return false }
        }.sorted()
        func names(_ list: [String]) -> String {
            ReportText.list(list.prefix(5).map(ReportText.escaped))
                + (list.count > 5 ? " and \(list.count - 5) more" : "")
        }
        if !removed.isEmpty {
            let what =
                now == nil
                ? "is gone, and with it the record of \(names(removed)) of \(bundle)"
                : "removes the record of \(names(removed)) of \(bundle)"
            add(file, line, "\(bundle): \(removed[0])", what)
        }
        if !rewritten.isEmpty {
            add(
                file, line, "\(bundle): \(rewritten[0])",
                "rewrites the recorded digests of \(names(rewritten)) of \(bundle)")
        }
    }
}

extension ConfigurationFloor.SettingsFile: Equatable {
    package static func == (a: Self, b: Self) -> Bool { a.display == b.display && a.json == b.json }
}
